/* cosmo_lpt3.c — the third-order (3LPT) displacement of a cosmological
 * initial condition (tbrf_ic_cosmo_params lpt 3), as monofonIC forms it
 * (Michaux et al. 2021, arXiv:2008.09588; its src/ic_generator.cc).
 *
 * From the unit potentials phi1 (Psi1 = grad phi1) and phi2 (laplacian
 * phi2 = delta2, cosmo_lpt.c's source, without D2), half-complex on the
 * particles' G^3 modes with kf the fundamental wavenumber:
 *     lap phi3a = det(phi1,ij)
 *     lap phi3b = sum_{i<j} [phi1,ii phi2,jj + phi2,ii phi1,jj
 *                            - 2 phi1,ij phi2,ij]
 *     lap A3c   = sum_i grad phi2,i x grad phi1,i      (transverse part)
 * and Psi3 = D3a grad phi3a + D3b grad phi3b / 2 + D3c curl A3c, with
 * D3a = -D1^3/3, D3b = 10/21 D1^3, D3c = -D1^3/7 (EdS's, with LCDM's D1,
 * as monofonIC: its phi is -phi1 here, so its +1/3, -10/21 and +1/7 of
 * the odd terms change sign; the half is its phi3b = sum_{i<j} [...] / 2).
 * Given D1 phi1 and D1^2 phi2 instead, every term carries D1^3 and the
 * coefficients are D3/D1^3 (tbrfi_icc_third_order). The velocity is 3 f1
 * times Psi3 (f_n = n f1, monofonIC's vfac3).
 *
 * The products, the cubic det too, are formed once on the 3/2-padded
 * grid of cosmo_lpt.c (M = floor((3G + 1)/2)): a quadratic one is exact
 * on the kept modes, a cubic one (reach 3K) aliases only from its part
 * beyond 2K; monofonIC instead keeps a pair's product on the G^3 modes
 * before multiplying by the third factor (its convolve3), which drops
 * more (doc/arepo.md, "Third order against monofonIC"). Serial pointwise
 * loops: bitwise the same for any thread count of FFTW; their arithmetic
 * (cosmo_lpt3_point.h) is shared with the distributed third order of
 * libtbrf_mpi (ic_mpi.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tbrf.h"
#include "apps/ic/cosmo_internal.h"
#include "apps/ic/cosmo_lpt3_point.h"
#include "methods/fft/fft.h"
#include "methods/turning_bands/lines.h"

/* a (padded, real after the call) = phi,ij of the G^3 potential phi. */
static void l3_deriv(int64_t g, double kf, const fftw_complex *phi, int i, int j, fftw_complex *a)
{
    const int64_t nh = g / 2 + 1, mm = (3 * g + 1) / 2, mh = mm / 2 + 1;
    memset(a, 0, tbrfi_icc_hc(mm) * sizeof *a);
    for (int64_t row = 0; row < g * g; row++) {
        const int64_t my = tbrfi_icc_wave(row % g, g), mz = tbrfi_icc_wave(row / g, g);
        const int64_t to = ((mz + mm) % mm * mm + (my + mm) % mm) * mh;
        for (int64_t x = 0; x < nh; x++) {
            const int64_t m[3] = {x, my, mz};
            const double f = -kf * kf * (double)m[i] * (double)m[j];
            a[to + x][0] = f * phi[row * nh + x][0];
            a[to + x][1] = f * phi[row * nh + x][1];
        }
    }
    fftw_plan p = tbrfi_fft_plan_cube(mm, a, 0, 1);
    fftw_execute(p);
    tbrfi_lines_fft_destroy(p);
}

/* out (G^3) = the potential whose laplacian is the padded real source s
 * (destroyed: transformed in place). */
static void l3_inverse_laplacian(int64_t g, double kf, fftw_complex *s, fftw_complex *out)
{
    const int64_t nh = g / 2 + 1, mm = (3 * g + 1) / 2, mh = mm / 2 + 1;
    fftw_plan p = tbrfi_fft_plan_cube(mm, s, 1, 1);
    fftw_execute(p);
    tbrfi_lines_fft_destroy(p);
    const double n3 = (double)mm * (double)mm * (double)mm;
    for (int64_t row = 0; row < g * g; row++) {
        const int64_t my = tbrfi_icc_wave(row % g, g), mz = tbrfi_icc_wave(row / g, g);
        const int64_t from = ((mz + mm) % mm * mm + (my + mm) % mm) * mh;
        for (int64_t x = 0; x < nh; x++) {
            const double m2 = (double)(x * x + my * my + mz * mz);
            const int zero = m2 == 0 || tbrfi_icc_nyquist(x, g) || tbrfi_icc_nyquist(my, g) || tbrfi_icc_nyquist(mz, g);
            const double f = zero ? 0.0 : -1.0 / (kf * kf * m2 * n3);
            out[row * nh + x][0] = f * s[from + x][0];
            out[row * nh + x][1] = f * s[from + x][1];
        }
    }
}

/* The six second derivatives xx yy zz xy xz yz of phi on the padded grid. */
static void l3_hessian(int64_t g, double kf, const fftw_complex *phi, fftw_complex *h[6])
{
    static const int ij[6][2] = {{0, 0}, {1, 1}, {2, 2}, {0, 1}, {0, 2}, {1, 2}};
    for (int t = 0; t < 6; t++)
        l3_deriv(g, kf, phi, ij[t][0], ij[t][1], h[t]);
}

/* H[i][j] as a pointer into the six arrays. */
static const double *l3_at(fftw_complex *h[6], int i, int j)
{
    static const int slot[3][3] = {{0, 3, 4}, {3, 1, 5}, {4, 5, 2}};
    return (const double *)h[slot[i][j]];
}

/* The real sources of 3a, 3b and the three components of 3c into s[0..4]. */
static void l3_sources(int64_t mm, fftw_complex *a[6], fftw_complex *b[6], fftw_complex *s[5])
{
    const int64_t nx2 = 2 * (mm / 2 + 1);
    for (int64_t row = 0; row < mm * mm; row++)
        for (int64_t x = 0; x < mm; x++) {
            const int64_t q = row * nx2 + x;
            double A[3][3], B[3][3];
            for (int i = 0; i < 3; i++)
                for (int j = 0; j < 3; j++) {
                    A[i][j] = l3_at(a, i, j)[q];
                    B[i][j] = l3_at(b, i, j)[q];
                }
            double out[5];
            tbrfi_lpt3_point(A, B, out);
            for (int k = 0; k < 5; k++)
                ((double *)s[k])[q] = out[k];
        }
}

/* phi3a, phi3b and A3c (three G^3 half-complex arrays) from the unit
 * potentials phi1 and phi2 (G^3 half-complex): out[0] = phi3a, out[1] =
 * phi3b, out[2..4] = A3c x y z, each tbrfi_icc_hc(g) complex values. Returns
 * TBRF_OK, TBRF_ERR_NO_MEMORY. */
int tbrfi_icc_lpt3_potentials(int64_t g, double kf, const fftw_complex *phi1,
                              const fftw_complex *phi2, fftw_complex *out[5])
{
    const int64_t mm = (3 * g + 1) / 2;
    fftw_complex *a[6] = {0}, *b[6] = {0}, *s[5];
    int st = TBRF_OK;
    for (int t = 0; t < 6; t++) {
        a[t] = fftw_malloc(tbrfi_icc_hc(mm) * sizeof(fftw_complex));
        b[t] = fftw_malloc(tbrfi_icc_hc(mm) * sizeof(fftw_complex));
        if (!a[t] || !b[t])
            st = TBRF_ERR_NO_MEMORY;
    }
    /* the sources over phi2's Hessian: a point's nine values are read
     * before its five sources are written: twelve padded grids in all */
    for (int t = 0; t < 5; t++)
        s[t] = b[t];
    if (st == TBRF_OK) {
        l3_hessian(g, kf, phi1, a);
        l3_hessian(g, kf, phi2, b);
        l3_sources(mm, a, b, s);
        for (int k = 0; k < 5; k++)
            l3_inverse_laplacian(g, kf, s[k], out[k]);
    }
    for (int t = 0; t < 6; t++) {
        fftw_free(a[t]);
        fftw_free(b[t]);
    }
    return st;
}

/* The modes of Psi3 (three half-complex G^3 arrays) in place of the five
 * potentials o[0..4] (phi3a, phi3b without its half, A3c x y z):
 * Psi3_c = i k_c (ca phi3a + cb phi3b) + (i k x cc A3c)_c; o[0..2]
 * become Psi3 x y z (o[3], o[4] left spent). */
static void l3_combine(int64_t g, double kf, double ca, double cb, double cc, fftw_complex *o[5])
{
    const int64_t nh = g / 2 + 1;
    for (int64_t row = 0; row < g * g; row++)
        for (int64_t x = 0; x < nh; x++) {
            const int64_t i = row * nh + x;
            const double k[3] = {kf * (double)x, kf * (double)tbrfi_icc_wave(row % g, g),
                                 kf * (double)tbrfi_icc_wave(row / g, g)};
            double in[5][2], out[3][2];
            for (int t = 0; t < 5; t++) {
                in[t][0] = o[t][i][0];
                in[t][1] = o[t][i][1];
            }
            tbrfi_lpt3_mode(k, ca, cb, cc, (const double(*)[2])in, out);
            for (int c = 0; c < 3; c++) {
                o[c][i][0] = out[c][0];
                o[c][i][1] = out[c][1];
            }
        }
}

int tbrfi_icc_third_order(int64_t g, double kf, double d2_over_d1sq, const fftw_complex *phi,
                          const fftw_complex *phi2, fftw_complex *psi3[3])
{
    fftw_complex *o[5] = {0};
    int st = TBRF_OK;
    for (int k = 0; k < 5; k++)
        if (!(o[k] = fftw_malloc(tbrfi_icc_hc(g) * sizeof(fftw_complex))))
            st = TBRF_ERR_NO_MEMORY;
    if (st == TBRF_OK)
        st = tbrfi_icc_lpt3_potentials(g, kf, phi, phi2, o);
    if (st == TBRF_OK) {
        /* phi2 is D2/D1^2 times the unit potential's D1^2 (cosmo_lpt.c):
         * the mixed terms take it back out */
        double coef[3];
        tbrfi_lpt3_coefficients(d2_over_d1sq, coef);
        l3_combine(g, kf, coef[0], coef[1], coef[2], o);
        for (int c = 0; c < 3; c++) {
            psi3[c] = o[c];
            o[c] = NULL;
        }
    }
    for (int k = 0; k < 5; k++)
        fftw_free(o[k]);
    return st;
}
