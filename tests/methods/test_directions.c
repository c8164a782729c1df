/* test_directions.c — line directions: unit length, the rotation is a
 * proper rotation, the set covers the sphere evenly (after symmetrising
 * u and -u), and it depends on (seed, realization) but nothing else. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "support/check.h"
#include "methods/turning_bands/directions.h"

static const double PI_ = 3.14159265358979323846;

int main(void)
{
    const int L = 1024;
    double *u = malloc(sizeof(double) * 3 * L), *v = malloc(sizeof(double) * 3 * L);
    tbrfi_directions_make(3, L, 7, 3, u);
    for (int i = 0; i < L; i++) {
        double n = u[3 * i] * u[3 * i] + u[3 * i + 1] * u[3 * i + 1] + u[3 * i + 2] * u[3 * i + 2];
        CHECK(fabs(n - 1.0) < 1e-14, "direction %d has |u|^2 = %.17g", i, n);
    }
    double R[9];
    tbrfi_directions_rotation(7, 3, R);
    double det = R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6]) +
                 R[2] * (R[3] * R[7] - R[4] * R[6]);
    CHECK(fabs(det - 1.0) < 1e-14, "det R = %.17g", det);
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            double dot = R[a] * R[b] + R[3 + a] * R[3 + b] + R[6 + a] * R[6 + b];
            CHECK(fabs(dot - (a == b)) < 1e-14, "R^T R [%d][%d] = %.17g", a, b, dot);
        }
    /* Second moments of the symmetrised set: for a uniform sphere
     * E[u u^T] = I/3. A low-discrepancy set of 1024 gets within ~1e-3
     * (random directions would scatter by ~sqrt(2/(15 L)) ~ 1.1e-2). */
    for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
            double m = 0.0;
            for (int i = 0; i < L; i++)
                m += u[3 * i + a] * u[3 * i + b];
            m /= L;
            CHECK(fabs(m - (a == b ? 1.0 / 3.0 : 0.0)) < 2e-3, "E[u%d u%d] = %.6f", a, b, m);
        }
    /* Fourth moment E[u_z^4] of the uniform sphere is 1/5. */
    double m4 = 0.0;
    for (int i = 0; i < L; i++)
        m4 += pow(u[3 * i + 2], 4);
    m4 /= L;
    CHECK(fabs(m4 - 0.2) < 2e-3, "E[uz^4] = %.6f", m4);
    /* Deterministic in (seed, realization), different otherwise. */
    tbrfi_directions_make(3, L, 7, 3, v);
    CHECK(memcmp(u, v, sizeof(double) * 3 * L) == 0, "same key gave different directions");
    tbrfi_directions_make(3, L, 7, 4, v);
    CHECK(memcmp(u, v, sizeof(double) * 3 * L) != 0, "realization did not change directions");
    tbrfi_directions_make(3, L, 8, 3, v);
    CHECK(memcmp(u, v, sizeof(double) * 3 * L) != 0, "seed did not change directions");
    /* 2D: evenly spaced on the half circle. */
    tbrfi_directions_make(2, L, 7, 3, u);
    for (int i = 1; i < L; i++) {
        double a0 = atan2(u[3 * i - 2], u[3 * i - 3]), a1 = atan2(u[3 * i + 1], u[3 * i]);
        CHECK(fabs(a1 - a0 - PI_ / L) < 1e-12, "2D spacing at %d: %.17g", i, a1 - a0);
        CHECK(u[3 * i + 2] == 0.0, "2D direction has z component");
    }
    free(u);
    free(v);
    return check_report("test_directions");
}
