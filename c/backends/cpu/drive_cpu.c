/* drive_cpu.c — the CPU backend's direct sum of a periodic driver's
 * Fourier modes at points (backend.h, drive_sum): per point the phases
 * e^{i m theta_d} of each axis by repeated products, then per mode two
 * complex products and 2 dim multiply-adds. These are the driver's
 * values since 0.3 (apps/driving/driver.c summed them itself before the
 * backend table carried them), bit for bit. */
#include <math.h>
#include <stdlib.h>

#include "backends/backend.h"
#include "core/parallel.h"
#include "tbrf.h"

static const double PI = 3.14159265358979323846;

/* Room per axis for e^{i m theta}, m = 0 .. 511 (the driver's largest |m_d|). */
#define AXIS_PHASES (2 * 512)

/* e^{i m theta} for m = 0 .. M into ec (re, im), theta = 2 pi (x - o) / L
 * along axis c: e^{i theta} once, its powers by products (m ulps at most,
 * about 1e-13 at m = 511, at a fraction of a sine's cost). */
static void axis_phases(const drive_sum *s, int c, double x, int M, double *ec)
{
    double t = (x - s->origin[c]) / s->length[c];
    t -= floor(t);
    const double th = 2.0 * PI * t, c1 = cos(th), s1 = sin(th);
    ec[0] = 1.0;
    ec[1] = 0.0;
    for (int m = 1; m <= M; m++) {
        ec[2 * m] = ec[2 * m - 2] * c1 - ec[2 * m - 1] * s1;
        ec[2 * m + 1] = ec[2 * m - 2] * s1 + ec[2 * m - 1] * c1;
    }
}

/* The force at x; e is room for 3 AXIS_PHASES. */
static void direct_point(const drive_sum *s, const double *x, double *e, double *out)
{
    const int dim = s->dim, nc = 2 * dim;
    double acc[3] = {0.0, 0.0, 0.0};
    for (int c = 0; c < dim; c++)
        axis_phases(s, c, x[c], s->mmax[c], e + AXIS_PHASES * c);
    const double *ex = e, *ey = e + AXIS_PHASES, *ez = e + 2 * AXIS_PHASES;
    for (int64_t i = 0; i < s->nm; i++) {
        const int32_t *m = s->m + 3 * i;
        const int my = m[1] < 0 ? -m[1] : m[1], mz = m[2] < 0 ? -m[2] : m[2];
        const double sy = m[1] < 0 ? -1.0 : 1.0, sz = m[2] < 0 ? -1.0 : 1.0;
        double er = ex[2 * m[0]], ei = ex[2 * m[0] + 1];
        const double yr = ey[2 * my], yi = sy * ey[2 * my + 1];
        double tr = er * yr - ei * yi, ti = er * yi + ei * yr;
        if (dim == 3) {
            const double zr = ez[2 * mz], zi = sz * ez[2 * mz + 1];
            er = tr * zr - ti * zi;
            ei = tr * zi + ti * zr;
        } else {
            er = tr;
            ei = ti;
        }
        const double *cf = s->coef + i * nc;
        for (int c = 0; c < dim; c++)
            acc[c] += cf[2 * c] * er - cf[2 * c + 1] * ei;
    }
    for (int c = 0; c < dim; c++)
        out[c] = 2.0 * acc[c];
}

int tbrfi_drive_cpu_points(const drive_sum *s, int64_t n, const double *xyz, double *out)
{
    const int dim = s->dim;
    int nomem = 0;
#pragma omp parallel num_threads(tbrf_threads(s->threads)) reduction(| : nomem) if ((double)n * (double)s->nm >= 1e5)
    {
        double *e = malloc(sizeof(double) * 3 * AXIS_PHASES);
        nomem = !e;
#pragma omp for schedule(static)
        for (int64_t i = 0; i < n; i++) {
            if (e)
                direct_point(s, xyz + (size_t)dim * (size_t)i, e, out + (size_t)dim * (size_t)i);
        }
        free(e);
    }
    return nomem ? TBRF_ERR_NO_MEMORY : TBRF_OK;
}
