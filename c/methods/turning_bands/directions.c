/* directions.c — low-discrepancy line directions with a random rotation. */
#include "methods/turning_bands/directions.h"

#include <math.h>
#include "tbrf/rng/philox.h"

void tbrfi_directions_rotation(uint64_t seed, uint64_t realization, double R[9])
{
    /* A unit quaternion with four standard-normal components, normalised,
     * is uniform on S^3, and the rotation it represents is Haar-uniform on
     * SO(3). */
    double q[4];
    tbrf_philox_normal4(seed, realization, 0u, TBRF_STREAM_ROTATION, q);
    double n = sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
    if (!(n > 0.0)) { /* probability zero, but keep it defined */
        q[0] = 1.0;
        q[1] = q[2] = q[3] = 0.0;
        n = 1.0;
    }
    double w = q[0] / n, x = q[1] / n, y = q[2] / n, z = q[3] / n;
    R[0] = 1 - 2 * (y * y + z * z); R[1] = 2 * (x * y - z * w);     R[2] = 2 * (x * z + y * w);
    R[3] = 2 * (x * y + z * w);     R[4] = 1 - 2 * (x * x + z * z); R[5] = 2 * (y * z - x * w);
    R[6] = 2 * (x * z - y * w);     R[7] = 2 * (y * z + x * w);     R[8] = 1 - 2 * (x * x + y * y);
}

void tbrfi_directions_make(int dim, int L, uint64_t seed, uint64_t realization, double *u)
{
    const double pi = 3.14159265358979323846;
    if (dim == 2) {
        philox4x32_ctr_t r = tbrf_philox(seed, realization, 0u, TBRF_STREAM_ROTATION);
        double offset = tbrf_u01_open(r.v[0]);
        for (int i = 0; i < L; i++) {
            double theta = pi * ((double)i + offset) / (double)L;
            u[3 * i] = cos(theta);
            u[3 * i + 1] = sin(theta);
            u[3 * i + 2] = 0.0;
        }
        return;
    }
    double R[9];
    tbrfi_directions_rotation(seed, realization, R);
    const double golden = 0.61803398874989484820; /* 1/phi: the golden-angle increment */
    for (int i = 0; i < L; i++) {
        double z = ((double)i + 0.5) / (double)L; /* uniform in z: equal area on the cap */
        double rho = sqrt(1.0 - z * z);
        double frac = (double)i * golden;
        frac -= floor(frac);
        double phi = 2.0 * pi * frac;
        double v[3] = {rho * cos(phi), rho * sin(phi), z};
        for (int c = 0; c < 3; c++)
            u[3 * i + c] = R[3 * c] * v[0] + R[3 * c + 1] * v[1] + R[3 * c + 2] * v[2];
    }
}
