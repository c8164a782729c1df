/* cosmo_lpt3_point.h — the pointwise arithmetic of the third order
 * (cosmo_lpt3.c's formulation, monofonIC's): the five real sources at a
 * point of the padded grid from the two Hessians there, and Psi3's modes
 * at a wavevector from the five potentials there. Static inline and free
 * of libtbrf's internals, so that the serial path (cosmo_lpt3.c) and the
 * distributed one (libtbrf_mpi's ic_mpi.c, which sees only the public
 * API) run the very same operations in the same order: the two differ
 * only by their transforms' rounding. */
#ifndef TBRF_APPS_IC_COSMO_LPT3_POINT_H
#define TBRF_APPS_IC_COSMO_LPT3_POINT_H

/* The sources at one point from A = phi1,ij and B = phi2,ij there:
 * s[0] = det A (phi3a's), s[1] = sum_{i<j} [A_ii B_jj + B_ii A_jj - 2
 * A_ij B_ij] (phi3b's, without its half), s[2..4] = sum_i grad B_i x grad
 * A_i (A3c's x y z). */
static inline void tbrfi_lpt3_point(const double A[3][3], const double B[3][3], double s[5])
{
    const double det = A[0][0] * (A[1][1] * A[2][2] - A[1][2] * A[2][1]) -
                       A[0][1] * (A[1][0] * A[2][2] - A[1][2] * A[2][0]) +
                       A[0][2] * (A[1][0] * A[2][1] - A[1][1] * A[2][0]);
    double mix = 0, c[3] = {0, 0, 0};
    for (int i = 0; i < 3; i++)
        for (int j = i + 1; j < 3; j++)
            mix += A[i][i] * B[j][j] + B[i][i] * A[j][j] - 2 * A[i][j] * B[i][j];
    for (int i = 0; i < 3; i++) {
        c[0] += B[i][1] * A[i][2] - B[i][2] * A[i][1];
        c[1] += B[i][2] * A[i][0] - B[i][0] * A[i][2];
        c[2] += B[i][0] * A[i][1] - B[i][1] * A[i][0];
    }
    s[0] = det;
    s[1] = mix;
    for (int k = 0; k < 3; k++)
        s[2 + k] = c[k];
}

/* Psi3's modes at wavevector k (k_f m) from the five potentials' modes o
 * there (phi3a, phi3b without its half, A3c x y z; re, im):
 * Psi3_c = i k_c (ca phi3a + cb phi3b) + (i k x cc A3c)_c, into out. */
static inline void tbrfi_lpt3_mode(const double k[3], double ca, double cb, double cc,
                                   const double o[5][2], double out[3][2])
{
    const double sr = ca * o[0][0] + cb * o[1][0], si = ca * o[0][1] + cb * o[1][1];
    double ar[3], ai[3];
    for (int c = 0; c < 3; c++) {
        ar[c] = cc * o[2 + c][0];
        ai[c] = cc * o[2 + c][1];
    }
    for (int c = 0; c < 3; c++) {
        const int p = (c + 1) % 3, q = (c + 2) % 3;
        /* i k_c S + i (k_p A_q - k_q A_p) */
        const double cr = k[p] * ar[q] - k[q] * ar[p], ci = k[p] * ai[q] - k[q] * ai[p];
        out[c][0] = -k[c] * si - ci;
        out[c][1] = k[c] * sr + cr;
    }
}

/* The coefficients of tbrfi_lpt3_mode for phi = D1 phi1 and phi2 = D2 Psi2's
 * potential (D2/D1^2 = d2_over_d1sq times the unit one's D1^2): D3a, D3b / 2
 * and D3c over D1^3, the mixed terms taking D2/D1^2 back out. */
static inline void tbrfi_lpt3_coefficients(double d2_over_d1sq, double c[3])
{
    c[0] = -1.0 / 3.0;
    c[1] = 5.0 / 21.0 / d2_over_d1sq;
    c[2] = -1.0 / 7.0 / d2_over_d1sq;
}

#endif
