/* radial.h — the radial transforms of an isotropic covariance that both
 * libtbrf's lognormal model (c/core/lognormal.c) and the spectrum
 * command's model of a lognormal density (c/analysis/shell_model.c) take:
 * one code, so that the two agree to the bit. Header only (the analysis
 * library links libtbrf's exported functions alone); the includer defines
 * _DEFAULT_SOURCE for j0. Not installed. */
#ifndef TBRF_CORE_RADIAL_H
#define TBRF_CORE_RADIAL_H

#include <math.h>
#include <stddef.h>

/* cos^2 taper: 1 on [0, rmax/2], falling to 0 at rmax. */
static inline double tbrfi_radial_taper(double r, double rmax)
{
    if (r <= 0.5 * rmax)
        return 1.0;
    const double c = cos(3.14159265358979323846 * (r / rmax - 0.5));
    return c * c;
}

/* F[h](k) = 4 pi ∫ r^2 h j0(kr) dr (3D) or 2 pi ∫ r h J0(kr) dr (2D) by the
 * trapezoid rule on r_j = j dr (h already tapered; the r = 0 term is 0). */
static inline double tbrfi_radial_transform(const double *h, size_t nr, double dr, int dim, double k)
{
    double s = 0.0;
    for (size_t j = 1; j < nr; j++) {
        const double r = (double)j * dr, x = k * r;
        const double w = dim == 3 ? r * r * (x < 1e-4 ? 1.0 - x * x / 6.0 : sin(x) / x) : r * j0(x);
        s += (j + 1 == nr ? 0.5 : 1.0) * w * h[j];
    }
    if (dim == 2 && nr > 2) {
        /* r h J0 is odd in r: the trapezoid rule's Euler-Maclaurin terms
         * at r = 0 do not vanish (in 3D, r^2 h j0 is even and they do).
         * Uncorrected, the first, dr^2 h(0)/12, is a white floor on P_g
         * that held 6% of sigma_g^2 at sigma_lnrho = 1.5. Add the two
         * leading ones: f'(0) = h(0) and f'''(0) = 3 (h''(0) - k^2 h(0)/2),
         * h''(0) from the even samples h0, h1. */
        const double h2 = 2.0 * (h[1] - h[0]) / (dr * dr);
        s += dr * h[0] / 12.0 - dr * dr * dr * 3.0 * (h2 - 0.5 * k * k * h[0]) / 720.0;
    }
    const double pi = 3.14159265358979323846;
    return (dim == 3 ? 4.0 * pi : 2.0 * pi) * s * dr;
}

#endif
