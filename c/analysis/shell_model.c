/* shell_model.c — the model a shell-averaged spectrum measures
 * (shell_model.h has the conventions). */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* j0 from math.h */
#endif
#include "analysis/shell_model.h"
#include "core/radial.h"

#include <math.h>
#include <stdlib.h>

static const double PI = 3.14159265358979323846;

#define GL_MAX 512
#define MAX_R_SAMPLES ((size_t)1 << 22)

/* The n-point Gauss-Legendre rule on [0, len]: Newton on P_n from the
 * Chebyshev guess (converges in a few steps for every n used here). */
static void gauss_legendre(int n, double len, double *x, double *w)
{
    for (int i = 0; i < n; i++) {
        double z = cos(PI * (i + 0.75) / (n + 0.5)), dp = 1.0;
        for (int it = 0; it < 100; it++) {
            double p0 = 1.0, p1 = z;
            for (int j = 2; j <= n; j++) {
                const double p2 = ((2.0 * j - 1.0) * z * p1 - (j - 1.0) * p0) / j;
                p0 = p1, p1 = p2;
            }
            dp = n * (z * p1 - p0) / (z * z - 1.0);
            const double dz = p1 / dp;
            z -= dz;
            if (fabs(dz) < 1e-16)
                break;
        }
        x[i] = 0.5 * len * (1.0 + z);
        w[i] = len / ((1.0 - z * z) * dp * dp);
    }
}

/* One rule of n nodes per angle over the octant (quadrant) of the mean. */
static double octant_mean(tbrf_iso_spectrum f, void *ctx, int dim, const double s[3], double k,
                          int n, double *x, double *w, double *y, double *v)
{
    gauss_legendre(n, 0.5 * PI, x, w);
    double sum = 0.0;
    if (dim == 2) {
        for (int i = 0; i < n; i++) {
            const double c = cos(x[i]), sn = sin(x[i]);
            sum += w[i] * f(ctx, k * sqrt(s[0] * s[0] * c * c + s[1] * s[1] * sn * sn));
        }
        return sum * 2.0 / PI;
    }
    gauss_legendre(n, 1.0, y, v);
    for (int i = 0; i < n; i++) {
        const double c = cos(x[i]), sn = sin(x[i]);
        const double plane = s[0] * s[0] * c * c + s[1] * s[1] * sn * sn;
        for (int j = 0; j < n; j++) {
            const double u = y[j];
            sum += w[i] * v[j] * f(ctx, k * sqrt((1.0 - u * u) * plane + s[2] * s[2] * u * u));
        }
    }
    return sum * 2.0 / PI;
}

int tbrf_shell_average(tbrf_iso_spectrum f, void *ctx, int dim, const double scale[3], double k,
                       double rtol, double *value, double *err)
{
    double e = NAN;
    *value = NAN;
    if (err)
        *err = NAN;
    if (!f || (dim != 2 && dim != 3) || !(k >= 0.0) || !isfinite(k))
        return -1;
    double det = 1.0;
    for (int d = 0; d < dim; d++) {
        if (!(scale[d] > 0.0) || !isfinite(scale[d]))
            return -1;
        det *= scale[d];
    }
    double x[GL_MAX], w[GL_MAX], y[GL_MAX], v[GL_MAX];
    double prev = octant_mean(f, ctx, dim, scale, k, 8, x, w, y, v), cur = prev;
    for (int n = 16; n <= GL_MAX; n *= 2) {
        cur = octant_mean(f, ctx, dim, scale, k, n, x, w, y, v);
        const double d = fabs(cur - prev);
        e = cur != 0.0 ? d / fabs(cur) : (d == 0.0 ? 0.0 : INFINITY);
        if (e <= rtol || (fabs(cur) < 1e-300 && d < 1e-300))
            break;
        prev = cur;
    }
    if (!isfinite(cur))
        return -1;
    *value = det * cur;
    if (err)
        *err = fabs(cur) < 1e-300 ? 0.0 : e;
    return 0;
}


int tbrf_lognormal_density_spectrum(const tbrf_model *gauss, int dim, double kmax, double rmax,
                                    size_t n, const double *k, double *p)
{
    if (!gauss || !k || !p || (dim != 2 && dim != 3) || !(kmax > 0.0) || !isfinite(kmax) ||
        !(rmax > 0.0) || !isfinite(rmax))
        return -1;
    for (size_t i = 0; i < n; i++)
        if (!(k[i] >= 0.0) || k[i] > kmax)
            return -1;
    const double dr = PI / (4.0 * kmax), nrd = ceil(rmax / dr) + 1.0;
    if (nrd > (double)MAX_R_SAMPLES)
        return -1;
    const size_t nr = (size_t)nrd;
    double *h = malloc(nr * sizeof *h);
    if (!h)
        return -1;
    for (size_t j = 0; j < nr; j++) {
        const double c = tbrf_model_covariance(gauss, dim, (double)j * dr);
        h[j] = (expm1(c) - c) * tbrfi_radial_taper((double)j * dr, rmax);
    }
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        p[i] = tbrf_model_spectrum(gauss, dim, k[i]) + tbrfi_radial_transform(h, nr, dr, dim, k[i]);
        if (!isfinite(p[i]))
            rc = -1;
    }
    free(h);
    return rc;
}
