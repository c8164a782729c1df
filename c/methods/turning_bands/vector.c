/* vector.c — line amplitudes of vector turning-bands fields (vector.h). */
#include "methods/turning_bands/vector.h"

#include <math.h>

#include "core/parallel.h"
#include "tbrf/rng/philox.h"

double tbrfi_vector_scale(int dim, double zeta)
{
    return sqrt((double)dim / (zeta * zeta * (double)(dim - 1) + (1.0 - zeta) * (1.0 - zeta)));
}

void tbrfi_vector_amplitudes(int dim, int L, const double *axis, uint64_t seed, uint64_t realization,
                             double zeta, double *amp)
{
    const double s = tbrfi_vector_scale(dim, zeta);
    for (int l = 0; l < L; l++) {
        double g[4], d[3] = {0, 0, 0}, n2 = 0.0;
        tbrf_philox_normal4(seed, realization, 0u, TBRF_STREAM_VECTOR | (uint32_t)l, g);
        for (int c = 0; c < dim; c++) {
            d[c] = axis[3 * l + c];
            n2 += d[c] * d[c];
        }
        double gd = 0.0;
        const double inv = 1.0 / sqrt(n2);
        for (int c = 0; c < dim; c++) {
            d[c] *= inv;
            gd += g[c] * d[c];
        }
        /* g_perp by Gram-Schmidt twice: once leaves |g_perp . d| at ulps of
         * |g|, which is large relative to g_perp when g lies near d */
        double perp[3] = {0, 0, 0}, pd = 0.0;
        for (int c = 0; c < dim; c++) {
            perp[c] = g[c] - gd * d[c];
            pd += perp[c] * d[c];
        }
        for (int c = 0; c < dim; c++)
            perp[c] -= pd * d[c];
        double *e = amp + 3 * l;
        e[2] = 0.0;
        for (int c = 0; c < dim; c++)
            e[c] = s * (zeta * perp[c] + (1.0 - zeta) * gd * d[c]);
    }
}

void tbrfi_vector_weight_lines(int ncomp, int L, int64_t M, const double *lines, const double *amp,
                               int threads, double *out)
{
#pragma omp parallel for schedule(static) num_threads(tbrf_threads(threads))
    for (int l = 0; l < L; l++)
        for (int c = 0; c < ncomp; c++) {
            const double a = amp[3 * l + c];
            const double *src = lines + (size_t)l * (size_t)M;
            double *dst = out + ((size_t)c * (size_t)L + (size_t)l) * (size_t)M;
            for (int64_t j = 0; j < M; j++)
                dst[j] = a * src[j];
        }
}
