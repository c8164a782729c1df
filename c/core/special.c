/* special.c — modified Bessel function K_nu and Gauss-Legendre quadrature
 * for the model layer. Pure functions, no state. */
#include <math.h>
#include <float.h>

#include "core/model.h"
#include "core/special.h"

const double tbrf_gl8_x[TBRF_GL8_HALF] = {
    0.960289856497536231684, 0.796666477413626739592, 0.525532409916328985818,
    0.183434642495649804939};
const double tbrf_gl8_w[TBRF_GL8_HALF] = {
    0.101228536290376259153, 0.222381034453374470544, 0.313706645877887287338,
    0.362683783378361982965};
const double tbrf_gl16_x[TBRF_GL16_HALF] = {
    0.989400934991649932596, 0.944575023073232576078, 0.86563120238783174388,
    0.755404408355003033895, 0.617876244402643748447, 0.458016777657227386342,
    0.28160355077925891323,  0.0950125098376374401853};
const double tbrf_gl16_w[TBRF_GL16_HALF] = {
    0.0271524594117540948518, 0.0622535239386478928628, 0.0951585116824927848099,
    0.124628971255533872052,  0.149595988816576732082,  0.169156519395002538189,
    0.182603415044923588867,  0.189450610455068496285};

/* The Gauss–Legendre rule of 2 half nodes, +-x[i] with weights w[i],
 * on [a, b]. */
static double gauss_legendre(tbrf_qfun f, const void *ctx, double a, double b, int half,
                             const double *x, const double *w)
{
    const double c = 0.5 * (a + b), h = 0.5 * (b - a);
    double s = 0.0;
    for (int i = 0; i < half; i++)
        s += w[i] * (f(c - h * x[i], ctx) + f(c + h * x[i], ctx));
    return s * h;
}

double tbrf_gl8(tbrf_qfun f, const void *ctx, double a, double b)
{
    return gauss_legendre(f, ctx, a, b, TBRF_GL8_HALF, tbrf_gl8_x, tbrf_gl8_w);
}

double tbrf_gl16(tbrf_qfun f, const void *ctx, double a, double b)
{
    return gauss_legendre(f, ctx, a, b, TBRF_GL16_HALF, tbrf_gl16_x, tbrf_gl16_w);
}

double tbrf_gl16_log(tbrf_qfun f, const void *ctx, double a, double b)
{
    /* t = ln(x/a) in [0, L]; x = a e^t, dx = x dt. */
    const double L = log1p((b - a) / a), h = 0.5 * L;
    double s = 0.0;
    for (int i = 0; i < TBRF_GL16_HALF; i++) {
        double x1 = a * exp(h * (1.0 - tbrf_gl16_x[i]));
        double x2 = a * exp(h * (1.0 + tbrf_gl16_x[i]));
        if (x2 > b) /* rounding at the top end */
            x2 = b;
        s += tbrf_gl16_w[i] * (x1 * f(x1, ctx) + x2 * f(x2, ctx));
    }
    return s * h;
}

/* ln cosh(y) for y >= 0, without overflow. */
static double lncosh(double y)
{
    return y + log1p(exp(-2.0 * y)) - 0.69314718055994530942;
}

double tbrf_bessel_k_scaled(double nu, double x, double lnfac)
{
    if (isnan(nu) || isnan(x) || isnan(lnfac) || x < 0.0 || isinf(nu))
        return NAN;
    if (x == 0.0)
        return INFINITY;
    if (isinf(x))
        return 0.0;
    nu = fabs(nu);
    /* The exponent e(t) = -x cosh t + ln cosh(nu t) peaks near
     * sinh t = nu / x with curvature about sqrt(x^2 + nu^2). The integrand
     * is analytic in the strip |Im t| < pi/2, so the trapezoid rule on the
     * (even) integrand converges like exp(-pi^2 / h); the step is also kept
     * below half the peak width so narrow peaks (large x or nu) are
     * resolved. */
    const double tpk = asinh(nu / x);
    const double lpk = lncosh(nu * tpk);
    const double width = 1.0 / sqrt(sqrt(x * x + nu * nu));
    double h = 0.5 * width;
    if (h > 0.1)
        h = 0.1;
    /* e(t) - e(tpk) with cosh t - cosh tpk = 2 sinh((t+tpk)/2) sinh((t-tpk)/2),
     * free of the cancellation in x cosh t for large x. */
    double sum = 0.5 * exp(2.0 * x * sinh(0.5 * tpk) * sinh(0.5 * tpk) - lpk); /* t = 0 */
    for (long j = 1; j < 2000000; j++) {
        const double t = (double)j * h;
        const double e = -2.0 * x * sinh(0.5 * (t + tpk)) * sinh(0.5 * (t - tpk)) +
                         lncosh(nu * t) - lpk;
        sum += exp(e);
        if (t > tpk && e < -40.0)
            break;
    }
    /* exp(lnfac + e(tpk)) with e(tpk) = -x - 2x sinh^2(tpk/2) + lpk: the
     * large -x is exponentiated on its own where that cannot overflow. */
    const double small = lnfac - 2.0 * x * sinh(0.5 * tpk) * sinh(0.5 * tpk) + lpk;
    double scale;
    if (fabs(small) < 700.0 && x < 708.0)
        scale = exp(small) * exp(-x);
    else
        scale = exp(small - x);
    return scale * h * sum;
}

double tbrf_bessel_k(double nu, double x)
{
    return tbrf_bessel_k_scaled(nu, x, 0.0);
}
