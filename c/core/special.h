/* special.h — special functions and quadrature helpers of the model layer
 * (c/core/special.c). Not installed. tbrf_bessel_k itself is declared in
 * model.h. */
#ifndef TBRF_SPECIAL_H
#define TBRF_SPECIAL_H

/* Gauss-Legendre rules on [-1, 1], symmetric: nodes +-x[i] with weight
 * w[i], x[] decreasing. */
#define TBRF_GL8_HALF 4
#define TBRF_GL16_HALF 8
extern const double tbrf_gl8_x[TBRF_GL8_HALF], tbrf_gl8_w[TBRF_GL8_HALF];
extern const double tbrf_gl16_x[TBRF_GL16_HALF], tbrf_gl16_w[TBRF_GL16_HALF];

/* Integrand of the quadrature helpers. */
typedef double (*tbrf_qfun)(double x, const void *ctx);

/* ∫_a^b f(x) dx by 8- or 16-point Gauss-Legendre on the single interval. */
double tbrf_gl8(tbrf_qfun f, const void *ctx, double a, double b);
double tbrf_gl16(tbrf_qfun f, const void *ctx, double a, double b);

/* ∫_a^b f(x) dx (0 < a < b) by 16-point Gauss-Legendre in t = ln x, i.e.
 * ∫ f(e^t) e^t dt: exact-ish for power laws on wide intervals. */
double tbrf_gl16_log(tbrf_qfun f, const void *ctx, double a, double b);

/* exp(lnfac) * K_nu(x) for real nu and x > 0, computed without
 * intermediate overflow (so x^nu K_nu(x) for tiny x and large nu is
 * reachable with lnfac = nu ln x). Trapezoid rule on
 * K_nu(x) = ∫_0^∞ exp(-x cosh t) cosh(nu t) dt, about 1e-14 relative.
 * NaN for NaN arguments or x < 0; +inf (times the factor) at x = 0. */
double tbrf_bessel_k_scaled(double nu, double x, double lnfac);

#endif
