/* cosmo_lpt.c — the first-order potential's Fourier modes, fixed
 * amplitudes and the second-order (2LPT) displacement of a cosmological
 * initial condition (tbrf_ic_cosmo_params lpt, fixed_amplitude; doc/ic.md).
 *
 * Conventions: Psi1 = grad phi with phi_k = delta_k / k^2 (so div Psi1 =
 * -delta); the second-order source is
 *     delta2(q) = sum_{i>j} [phi,ii phi,jj - (phi,ij)^2]
 * (quadratic: the sign of phi, hence a paired partner, does not change
 * it), Psi2 = grad phi2 with laplacian phi2 = delta2, and x = q + D1 Psi1 +
 * D2 Psi2 with D2 ~ -(3/7) D1^2 (Scoccimarro 1998; 2LPTic, monofonIC).
 *
 * phi comes from the plan itself: its curl-free Psi1 on the particle
 * lattice (the FFT method's bits) transformed forward, phi_k = -i k.Psi_k /
 * k^2, so the second order belongs to exactly the first-order field the
 * particles get. The products phi,ii phi,jj and phi,ij^2 are formed on a
 * grid padded to M = floor((3G + 1)/2) points per axis (Orszag's 3/2
 * rule, as monofonIC): the first-order modes have |m_d| <= K = ceil(G/2)
 * - 1, a product's reach 2K, and a product mode aliases onto a kept mode
 * |m| <= K only if M <= 3K; M >= 3K + 1 makes every kept mode of delta2
 * exact. delta2 is kept on the particles' G^3 modes (the Nyquist planes
 * zeroed), the modes the lattice can carry. The FFTs run on FFTW's
 * threads as the FFT method's do, and the pointwise loops are split over
 * threads, neither changing a bit (tested with 1 and 3 threads). lpt 3
 * adds the third order from phi and phi2 (cosmo_lpt3.c) on the same
 * padded grid. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tbrf.h"
#include "apps/ic/cosmo_internal.h"
#include "apps/ic/ic_internal.h"
#include "core/parallel.h"
#include "methods/fft/fft.h"
#include "methods/turning_bands/lines.h"

#define PI 3.14159265358979323846

/* The fundamental wavenumber as the plan's FFT method has it: 2 pi over
 * the period G (L/G) of its box lattice, which may differ from L in the
 * last bit, so that a mode on the sphere cut is kept or dropped as the
 * plan keeps or drops it. */
static double kfund(const tbrf_ic_cosmo *ic)
{
    const double g = (double)ic->p.particles;
    return 2 * PI / (g * (ic->p.box / g));
}

/* The padded grid of the products. */
static int64_t padded(int64_t g)
{
    return (3 * g + 1) / 2;
}

/* The three fine grids of the lattice's type-2 NUFFT (tbrfi_icc_fine). */
static double fine3_bytes(const tbrf_ic_cosmo_params *p)
{
    nufft_setup s;
    const double o[3] = {0, 0, 0}, l[3] = {p->box, p->box, p->box};
    const int64_t n[3] = {p->particles, p->particles, p->particles};
    tbrfi_nufft_setup(&s, 3, n, o, l, 1e-12);
    return 3.0 * tbrfi_nufft_fine_bytes(&s);
}

/* Psi1 stays from make to generate (ic->psi1). */
static int keeps_psi1(const tbrf_ic_cosmo_params *p)
{
    return p->lpt >= 2 && !p->fixed_amplitude && p->glass_n == 0;
}

double tbrfi_icc_lpt_making(const tbrf_ic_cosmo_params *p)
{
    if (p->lpt < 2 && !p->fixed_amplitude)
        return 0.0;
    const int64_t g = p->particles;
    const double g3 = (double)g * (double)g * (double)g, hc = 16.0 * (double)tbrfi_icc_hc(g);
    /* first_potential: Psi1 of the plan's lattice transform (one
     * half-complex grid, as hc), phi and the work array */
    const double first = 24.0 * g3 + 3.0 * hc;
    if (p->lpt < 2)
        return first;
    /* second_order: phi, phi2, the three padded grids, and Psi1 if kept */
    const double pad = 16.0 * (double)tbrfi_icc_hc(padded(g)), kept = keeps_psi1(p) ? 24.0 * g3 : 0.0;
    const double second = 2.0 * hc + 3.0 * pad + kept;
    if (p->lpt < 3)
        return fmax(first, second);
    /* third order: phi, phi2, its five potentials (three become Psi3's
     * modes) and its padded grids, and Psi1 if kept */
    const double third = 7.0 * hc + TBRFI_ICC_LPT3_PADDED * pad + kept;
    return fmax(first, fmax(second, third));
}

double tbrfi_icc_lpt_held(const tbrf_ic_cosmo_params *p)
{
    const int fields = (p->lpt >= 2) + (p->lpt >= 3) + (p->fixed_amplitude != 0);
    if (fields == 0)
        return 0.0;
    const int64_t g = p->particles;
    const double g3 = (double)g * (double)g * (double)g, hc = 16.0 * (double)tbrfi_icc_hc(g);
    /* the potentials kept (Psi3 as its three components' modes), one work
     * array, each field evaluated (whole lattice arrays, or the glass's
     * fine grids) */
    const double eval = p->glass_n > 0 ? fine3_bytes(p) : 24.0 * g3;
    return hc * (fields + 1 + (p->lpt >= 3 ? 2 : 0)) + eval * fields +
           (keeps_psi1(p) ? 24.0 * g3 : 0.0);
}

double tbrfi_icc_plan_at_sites(const tbrf_ic_cosmo_params *p)
{
    const int64_t g = p->particles;
    return fine3_bytes(p) + 16.0 * (double)tbrfi_icc_hc(g);
}

/* The transposed-layout plan of the in-place n^3 transform on array c
 * (tbrfi_fft_cube_t: modes [ky][kz][kx]) on the threads the FFT method
 * uses. 0 when FFTW cannot plan. */
static int plan_cube(tbrfi_fft_cube_t *t, int64_t n, fftw_complex *c, int forward)
{
    return tbrfi_fft_cube_t_plan(t, n, c, forward, tbrf_threads(0));
}

/* Row (iz, iy) of the transposed layout: [ky][kz]. */
static int64_t t_row(int64_t row, int64_t n)
{
    return row % n * n + row / n;
}

/* The first-order potential phi_k (half-complex G^3, FFT-method layout)
 * from Psi1 on the lattice (3 G^3 interleaved): phi = -i m.Psi_m / (kf
 * m^2) / G^3 from the forward transforms; modes of zero power (the sphere
 * cut, the Nyquist planes, m = 0) exactly zero. work: a half-complex
 * array. */
static int potential(const tbrf_ic_cosmo *ic, const double *psi, fftw_complex *phi,
                     fftw_complex *work)
{
    const int64_t g = ic->p.particles, nh = g / 2 + 1, nx2 = 2 * nh;
    const double kf = kfund(ic), norm = 1.0 / ((double)g * (double)g * (double)g);
    tbrfi_fft_cube_t f;
    if (!plan_cube(&f, g, work, 1))
        return TBRF_ERR_FFT;
    memset(phi, 0, tbrfi_icc_hc(g) * sizeof *phi);
    for (int c = 0; c < 3; c++) {
        double *r = (double *)work;
        for (int64_t row = 0; row < g * g; row++)
            for (int64_t x = 0; x < g; x++)
                r[row * nx2 + x] = psi[3 * (row * g + x) + c];
        tbrfi_fft_cube_t_execute(&f, work);
        for (int64_t row = 0; row < g * g; row++)
            for (int64_t x = 0; x < nh; x++) {
                const int64_t m[3] = {x, tbrfi_icc_wave(row % g, g), tbrfi_icc_wave(row / g, g)};
                const double *w = work[t_row(row, g) * nh + x];
                phi[row * nh + x][0] += (double)m[c] * w[0];
                phi[row * nh + x][1] += (double)m[c] * w[1];
            }
    }
    tbrfi_fft_cube_t_destroy(&f);
    for (int64_t row = 0; row < g * g; row++)
        for (int64_t x = 0; x < nh; x++) {
            const int64_t m[3] = {x, tbrfi_icc_wave(row % g, g), tbrfi_icc_wave(row / g, g)};
            const double m2 = (double)(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
            double *a = phi[row * nh + x];
            const int zero = m2 == 0 || tbrfi_icc_nyquist(m[0], g) || tbrfi_icc_nyquist(m[1], g) ||
                             tbrfi_icc_nyquist(m[2], g) ||
                             tbrf_model_spectrum(ic->m, 3, kf * sqrt(m2)) == 0.0;
            const double f = zero ? 0.0 : norm / (kf * m2), re = a[0];
            a[0] = f * a[1]; /* -i (re + i im) f */
            a[1] = -f * re;
        }
    return TBRF_OK;
}

/* Fixed amplitudes: every non-zero phi_k scaled to its rms sqrt(P D^2 /
 * V) / k^2, which is sqrt(3 S(k) / V) / k for Psi's per-component spectrum
 * S (the phase kept; k and -k keep their conjugate symmetry). */
static void fix_amplitudes(const tbrf_ic_cosmo *ic, fftw_complex *phi)
{
    const int64_t g = ic->p.particles, nh = g / 2 + 1;
    const double kf = kfund(ic), per = 2 * PI / kf, vol = per * per * per;
    for (int64_t row = 0; row < g * g; row++)
        for (int64_t x = 0; x < nh; x++) {
            double *a = phi[row * nh + x];
            const double r = hypot(a[0], a[1]);
            if (r == 0.0)
                continue;
            const int64_t m[3] = {x, tbrfi_icc_wave(row % g, g), tbrfi_icc_wave(row / g, g)};
            const double k = kf * sqrt((double)(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]));
            const double s = tbrf_model_spectrum(ic->m, 3, k);
            const double f = sqrt(3.0 * s / vol) / k / r;
            a[0] *= f;
            a[1] *= f;
        }
}

/* The padded array a (M^3, zeroed first) holding the modes of phi,ij
 * (-k_i k_j phi_k), transformed to real space. */
static void derivative(const tbrf_ic_cosmo *ic, const fftw_complex *phi, int i, int j,
                       const tbrfi_fft_cube_t *c2r, fftw_complex *a)
{
    const int64_t g = ic->p.particles, nh = g / 2 + 1, mm = padded(g), mh = mm / 2 + 1;
    const double kf = kfund(ic);
    memset(a, 0, tbrfi_icc_hc(mm) * sizeof *a);
    for (int64_t row = 0; row < g * g; row++) {
        const int64_t my = tbrfi_icc_wave(row % g, g), mz = tbrfi_icc_wave(row / g, g);
        const int64_t to = ((my + mm) % mm * mm + (mz + mm) % mm) * mh; /* transposed */
        for (int64_t x = 0; x < nh; x++) {
            const int64_t m[3] = {x, my, mz};
            const double f = -kf * kf * (double)m[i] * (double)m[j];
            a[to + x][0] = f * phi[row * nh + x][0];
            a[to + x][1] = f * phi[row * nh + x][1];
        }
    }
    tbrfi_fft_cube_t_execute(c2r, a);
}

/* s = s op a b over the padded real grid: op 0 sets, +1 adds, -1
 * subtracts; b NULL squares a. */
static void products(int64_t mm, double *s, const double *a, const double *b, int op)
{
    const int64_t nx2 = 2 * (mm / 2 + 1);
#pragma omp parallel for schedule(static) num_threads(tbrf_threads(0))
    for (int64_t row = 0; row < mm * mm; row++)
        for (int64_t x = 0; x < mm; x++) {
            const int64_t i = row * nx2 + x;
            const double v = a[i] * (b ? b[i] : a[i]);
            s[i] = op == 0 ? v : op > 0 ? s[i] + v : s[i] - v;
        }
}

/* delta2 of phi on the padded grid into S (real space): xx yy + (xx + yy)
 * zz - xy^2 - xz^2 - yz^2, with two more padded arrays A and B. */
static void source(const tbrf_ic_cosmo *ic, const fftw_complex *phi, const tbrfi_fft_cube_t *c2r,
                   fftw_complex *S, fftw_complex *A, fftw_complex *B)
{
    const int64_t mm = padded(ic->p.particles), nx2 = 2 * (mm / 2 + 1);
    double *s = (double *)S, *a = (double *)A, *b = (double *)B;
    derivative(ic, phi, 0, 0, c2r, A);
    derivative(ic, phi, 1, 1, c2r, B);
    products(mm, s, a, b, 0);
    for (int64_t i = 0; i < mm * mm * nx2; i++)
        a[i] += b[i];
    derivative(ic, phi, 2, 2, c2r, B);
    products(mm, s, a, b, +1);
    static const int off[3][2] = {{0, 1}, {0, 2}, {1, 2}};
    for (int t = 0; t < 3; t++) {
        derivative(ic, phi, off[t][0], off[t][1], c2r, A);
        products(mm, s, a, NULL, -1);
    }
}

/* phi2 (half-complex G^3) of the displacement D2 Psi2 from the padded
 * source's transform S: phi2 = -(D2 / D1^2) delta2_k / k^2 on the G^3
 * modes, Nyquist planes and m = 0 zero. (D1 is in phi already: the
 * source of D1 phi is D1^2 delta2.) */
static void second_potential(const tbrf_ic_cosmo *ic, const fftw_complex *S, fftw_complex *phi2)
{
    const int64_t g = ic->p.particles, nh = g / 2 + 1, mm = padded(g), mh = mm / 2 + 1;
    const double kf = kfund(ic), d1 = ic->info.growth;
    const double scale = ic->info.growth2 / (d1 * d1) / ((double)mm * (double)mm * (double)mm);
    for (int64_t row = 0; row < g * g; row++) {
        const int64_t my = tbrfi_icc_wave(row % g, g), mz = tbrfi_icc_wave(row / g, g);
        const int64_t from = ((my + mm) % mm * mm + (mz + mm) % mm) * mh; /* transposed */
        for (int64_t x = 0; x < nh; x++) {
            const double m2 = (double)(x * x + my * my + mz * mz);
            const int zero = m2 == 0 || tbrfi_icc_nyquist(x, g) || tbrfi_icc_nyquist(my, g) || tbrfi_icc_nyquist(mz, g);
            const double f = zero ? 0.0 : -scale / (kf * kf * m2);
            phi2[row * nh + x][0] = f * S[from + x][0];
            phi2[row * nh + x][1] = f * S[from + x][1];
        }
    }
}

/* phi2 from phi: the dealiased source on the padded grid. */
static int second_order(tbrf_ic_cosmo *ic, const fftw_complex *phi, fftw_complex *phi2)
{
    const int64_t mm = padded(ic->p.particles);
    fftw_complex *pad[3];
    for (int i = 0; i < 3; i++)
        pad[i] = fftw_malloc(tbrfi_icc_hc(mm) * sizeof(fftw_complex));
    tbrfi_fft_cube_t c2r = {0}, r2c = {0};
    const int mem = pad[0] && pad[1] && pad[2];
    const int planned = mem && plan_cube(&c2r, mm, pad[1], 0) && plan_cube(&r2c, mm, pad[0], 1);
    int st = !mem ? TBRF_ERR_NO_MEMORY : !planned ? TBRF_ERR_FFT : TBRF_OK;
    if (st == TBRF_OK) {
        source(ic, phi, &c2r, pad[0], pad[1], pad[2]);
        tbrfi_fft_cube_t_execute(&r2c, pad[0]);
        second_potential(ic, pad[0], phi2);
    }
    tbrfi_fft_cube_t_destroy(&c2r);
    tbrfi_fft_cube_t_destroy(&r2c);
    for (int i = 0; i < 3; i++)
        fftw_free(pad[i]);
    return st;
}

/* Psi1 on the lattice from the plan, and its potential; Psi1 kept in
 * ic->psi1 when the particles take it as it is (2LPT on the lattice,
 * amplitudes not fixed); tbrfi_icc_lpt_making counts it beside the padded
 * grids. */
static int first_potential(tbrf_ic_cosmo *ic, fftw_complex *phi, fftw_complex *work)
{
    const tbrf_ic_cosmo_params *p = &ic->p;
    const int64_t g = p->particles;
    double *psi = malloc((size_t)(g * g * g) * 3 * sizeof *psi);
    if (!psi)
        return TBRF_ERR_NO_MEMORY;
    const double dx = p->box / (double)g;
    const double origin[3] = {0, 0, 0}, spacing[3] = {dx, dx, dx};
    const int64_t n[3] = {g, g, g};
    int st = tbrf_set_grid(ic->plan, origin, spacing, n);
    if (st == TBRF_OK)
        st = tbrf_execute(ic->plan, 0, psi);
    if (st != TBRF_OK) {
        free(psi);
        return tbrfi_fail(&ic->msg, st, "%s", tbrf_plan_message(ic->plan));
    }
    st = potential(ic, psi, phi, work);
    if (st == TBRF_OK && p->lpt >= 2 && !p->fixed_amplitude && p->glass_n == 0)
        ic->psi1 = psi;
    else
        free(psi);
    return st;
}

int tbrfi_icc_lpt_setup(tbrf_ic_cosmo *ic)
{
    const tbrf_ic_cosmo_params *p = &ic->p;
    if (p->lpt < 2 && !p->fixed_amplitude)
        return TBRF_OK;
    char why[TBRFI_MESSAGE_SIZE];
    int st = tbrfi_ic_budget(tbrfi_icc_bytes(p, TBRF_IC_MAX_CHUNKS), "cosmological IC: the "
                             "first-order potential and the second-order source", why, sizeof why);
    if (st != TBRF_OK)
        return tbrfi_fail(&ic->msg, st, "%s", why);
    const size_t hc = tbrfi_icc_hc(p->particles) * sizeof(fftw_complex);
    fftw_complex *phi = fftw_malloc(hc), *work = fftw_malloc(hc);
    st = phi && work ? first_potential(ic, phi, work) : TBRF_ERR_NO_MEMORY;
    if (st == TBRF_OK && p->fixed_amplitude)
        fix_amplitudes(ic, phi);
    if (st == TBRF_OK && p->lpt >= 2) {
        fftw_free(work); /* room for the padded grids */
        work = NULL;
        ic->phi2 = fftw_malloc(hc);
        st = ic->phi2 ? second_order(ic, phi, ic->phi2) : TBRF_ERR_NO_MEMORY;
    }
    if (st == TBRF_OK && p->lpt >= 3) {
        const double d1 = ic->info.growth;
        st = tbrfi_icc_third_order(p->particles, kfund(ic), ic->info.growth2 / (d1 * d1), phi,
                                   ic->phi2, ic->psi3);
    }
    if (st == TBRF_OK && p->fixed_amplitude) {
        ic->phi1 = phi;
        phi = NULL;
    }
    fftw_free(phi);
    fftw_free(work);
    if (st == TBRF_ERR_NO_MEMORY)
        return tbrfi_fail(&ic->msg, st, "cosmological IC: out of memory for the potentials");
    if (st == TBRF_ERR_FFT)
        return tbrfi_fail(&ic->msg, st, "cosmological IC: FFTW could not plan a transform");
    return st; /* the plan's failure has its message */
}

/* The modes of component c of grad phi (or, phi NULL, of the field whose
 * modes are vec[c]) into the half-complex array w, in phi's layout or
 * (transposed) tbrfi_fft_cube_t's. */
static void gradient_modes(const tbrf_ic_cosmo *ic, const fftw_complex *phi,
                           fftw_complex *const *vec, int c, int transposed, fftw_complex *w)
{
    const int64_t g = ic->p.particles, nh = g / 2 + 1;
    const double kf = kfund(ic);
    for (int64_t row = 0; row < g * g; row++)
        for (int64_t x = 0; x < nh; x++) {
            const int64_t m[3] = {x, tbrfi_icc_wave(row % g, g), tbrfi_icc_wave(row / g, g)};
            const double k = kf * (double)m[c];
            double *to = w[(transposed ? t_row(row, g) : row) * nh + x];
            if (!phi) {
                to[0] = vec[c][row * nh + x][0];
                to[1] = vec[c][row * nh + x][1];
                continue;
            }
            to[0] = -k * phi[row * nh + x][1]; /* i k phi */
            to[1] = k * phi[row * nh + x][0];
        }
}

/* One mode of the fixed-amplitude Psi1 from the plan's (w[c]: component
 * c's mode at m): the potential -i m.w / (kf m^2), as potential() makes it
 * from the transform of the plan's field (zero where it is), its modulus
 * set as fix_amplitudes() sets it, its gradient as gradient_modes(). */
static void fixed_mode(const tbrf_ic_cosmo *ic, const int64_t m[3], double *w[3])
{
    const int64_t g = ic->p.particles;
    const double kf = kfund(ic), per = 2 * PI / kf, vol = per * per * per;
    const double m2 = (double)(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
    const double k = kf * sqrt(m2);
    const double s = m2 == 0 ? 0.0 : tbrf_model_spectrum(ic->m, 3, k);
    const int zero = m2 == 0 || tbrfi_icc_nyquist(m[0], g) || tbrfi_icc_nyquist(m[1], g) || tbrfi_icc_nyquist(m[2], g) ||
                     s == 0.0;
    double re = 0, im = 0;
    for (int c = 0; c < 3; c++) {
        re += (double)m[c] * w[c][0];
        im += (double)m[c] * w[c][1];
    }
    const double f = zero ? 0.0 : 1.0 / (kf * m2);
    double a[2] = {f * im, -f * re}; /* -i (re + i im) f */
    const double r = hypot(a[0], a[1]);
    if (r != 0.0) {
        const double fix = sqrt(3.0 * s / vol) / k / r;
        a[0] *= fix;
        a[1] *= fix;
    }
    for (int c = 0; c < 3; c++) {
        const double kc = kf * (double)m[c];
        w[c][0] = -kc * a[1]; /* i k phi */
        w[c][1] = kc * a[0];
    }
}

int tbrf_ic_cosmo_fixed_modes(tbrf_ic_cosmo *ic, int64_t first_row, int64_t rows, double *mx,
                              double *my, double *mz)
{
    if (!ic || (rows > 0 && (!mx || !my || !mz)))
        return TBRF_ERR_NULL;
    if (!ic->made)
        return TBRF_ERR_BAD_PLAN;
    const int64_t g = ic->p.particles, nh = g / 2 + 1;
    if (first_row < 0 || rows < 0 || first_row > g * g - rows)
        return tbrfi_fail(&ic->msg, TBRF_ERR_INVALID, "cosmological IC: rows %lld + %lld "
                          "outside the %lld rows of the lattice's modes", (long long)first_row,
                          (long long)rows, (long long)(g * g));
    double *mode[3] = {mx, my, mz};
    for (int64_t r = 0; r < rows; r++) {
        const int64_t row = first_row + r;
        for (int64_t x = 0; x < nh; x++) {
            const int64_t m[3] = {x, tbrfi_icc_wave(row % g, g), tbrfi_icc_wave(row / g, g)};
            double *w[3];
            for (int c = 0; c < 3; c++)
                w[c] = mode[c] + 2 * (r * nh + x);
            fixed_mode(ic, m, w);
        }
    }
    return TBRF_OK;
}

/* The field of phi's gradient, or of the modes vec, on the lattice. */
static int lattice_of(const tbrf_ic_cosmo *ic, const fftw_complex *phi, fftw_complex *const *vec,
                      double *out)
{
    const int64_t g = ic->p.particles, nx2 = 2 * (g / 2 + 1);
    fftw_complex *w = fftw_malloc(tbrfi_icc_hc(g) * sizeof *w);
    tbrfi_fft_cube_t f;
    if (!w || !plan_cube(&f, g, w, 0)) {
        fftw_free(w);
        return w ? TBRF_ERR_FFT : TBRF_ERR_NO_MEMORY;
    }
    for (int c = 0; c < 3; c++) {
        gradient_modes(ic, phi, vec, c, 1, w);
        tbrfi_fft_cube_t_execute(&f, w);
        const double *r = (const double *)w;
        for (int64_t row = 0; row < g * g; row++)
            for (int64_t x = 0; x < g; x++)
                out[3 * (row * g + x) + c] = r[row * nx2 + x];
    }
    tbrfi_fft_cube_t_destroy(&f);
    fftw_free(w);
    return TBRF_OK;
}

void tbrfi_icc_nufft_setup(const tbrf_ic_cosmo *ic, nufft_setup *s)
{
    const int64_t g = ic->p.particles;
    const double dx = ic->p.box / (double)g;
    /* the period of the plan's box, n (L/n), as the periodic plan takes it */
    const double o[3] = {0, 0, 0}, l[3] = {(double)g * dx, (double)g * dx, (double)g * dx};
    const int64_t n[3] = {g, g, g};
    tbrfi_nufft_setup(s, 3, n, o, l, 1e-12);
}

int tbrfi_icc_lattice(const tbrf_ic_cosmo *ic, const fftw_complex *phi, double *out)
{
    return lattice_of(ic, phi, NULL, out);
}

int tbrfi_icc_lattice3(const tbrf_ic_cosmo *ic, double *out)
{
    return lattice_of(ic, NULL, ic->psi3, out);
}

/* The fine grids of phi's gradient, or of the modes vec. */
static int fine_of(const tbrf_ic_cosmo *ic, const fftw_complex *phi, fftw_complex *const *vec,
                   const nufft_setup *s, double *u[3])
{
    fftw_complex *w = fftw_malloc(tbrfi_icc_hc(ic->p.particles) * sizeof *w);
    int st = w ? TBRF_OK : TBRF_ERR_NO_MEMORY;
    for (int c = 0; c < 3 && st == TBRF_OK; c++) {
        u[c] = tbrfi_nufft_fine_alloc(s);
        if (!u[c]) {
            st = TBRF_ERR_NO_MEMORY;
            break;
        }
        gradient_modes(ic, phi, vec, c, 0, w);
        st = tbrfi_nufft_fine(s, w, 0, u[c]);
    }
    fftw_free(w);
    return st;
}

int tbrfi_icc_fine(const tbrf_ic_cosmo *ic, const fftw_complex *phi, const nufft_setup *s,
                   double *u[3])
{
    return fine_of(ic, phi, NULL, s, u);
}

int tbrfi_icc_fine3(const tbrf_ic_cosmo *ic, const nufft_setup *s, double *u[3])
{
    return fine_of(ic, NULL, ic->psi3, s, u);
}
