#define _POSIX_C_SOURCE 200809L
/* test_fft_modes_simd.c — the FFT method's mode fill on every ISA path
 * (portable, AVX2, AVX-512, forced through TBRF_CPU_ISA) against the
 * definition of a mode, written out here independently of fft.c:
 *   a_m for the canonical member of the pair {m, -m} (first non-zero of
 *   (m_x, m_y, m_z) positive) is Marsaglia's polar method on the word pairs
 *   (0,1), then (2,3) of Philox(seed; m packed in 21 bits per axis offset
 *   by 2^20, word 1 = 0x80000000 | high bits, realization), halved in
 *   power; where both pairs miss the unit disc, Box–Muller on -m's block
 *   times 1/sqrt(2); a_-m = conj(a_m); the zero and Nyquist modes are 0.
 * With P(k) = 1 (a callback model, amplitude 1) and origin 0, the filled
 * array holds exactly sqrt(1 * (1/V)) a_m (phase 1: re*1 - im*0 = re, since
 * re and im are never zero), so every entry is compared bitwise.
 * Grids: odd and even sizes, rows longer than the fill's 256-mode block
 * (1030 = 4 blocks + a tail), 2D and 3D, 1- and 2-cell axes; and the
 * vector fill (comp >= 0) and a shifted origin compared across ISAs
 * bitwise (they take the per-mode path, which has no SIMD). */
#include <stdlib.h>

#include "core/cpu_isa.h"
#include "methods/fft/fft.h"
#include "support/testutil.h"
#include "tbrf/rng/philox.h"

#define HALF ((int64_t)1 << 20)

static double s11(uint32_t x)
{
    return ((double)x + 0.5) * (1.0 / 2147483648.0) - 1.0;
}

static uint64_t pack(int64_t mx, int64_t my, int64_t mz)
{
    return (uint64_t)(mx + HALF) | ((uint64_t)(my + HALF) << 21) | ((uint64_t)(mz + HALF) << 42);
}

/* The definition above, for a canonical m. */
static void reference_mode(uint64_t seed, uint64_t r, int64_t mx, int64_t my, int64_t mz, double *re,
                           double *im)
{
    const uint64_t K = pack(mx, my, mz);
    const philox4x32_ctr_t w = tbrf_philox(seed, r, (uint32_t)K, 0x80000000u | (uint32_t)(K >> 32));
    for (int k = 0; k < 4; k += 2) {
        const double u = s11(w.v[k]), v = s11(w.v[k + 1]), q = u * u + v * v;
        if (q < 1.0) {
            const double f = sqrt(-log(q) / q);
            *re = u * f;
            *im = v * f;
            return;
        }
    }
    const uint64_t Kc = pack(-mx, -my, -mz);
    const philox4x32_ctr_t c = tbrf_philox(seed, r, (uint32_t)Kc, 0x80000000u | (uint32_t)(Kc >> 32));
    double g0, g1;
    tbrf_box_muller(c.v[0], c.v[1], &g0, &g1);
    *re = g0 * 0.70710678118654752440;
    *im = g1 * 0.70710678118654752440;
}

static int64_t m_of(int64_t i, int64_t n)
{
    return i <= n / 2 ? i : i - n;
}

static int nyq(int64_t m, int64_t n)
{
    return n % 2 == 0 && (m == n / 2 || m == -n / 2);
}

static double flat(double k, int dim, void *user)
{
    (void)k, (void)dim, (void)user;
    return 1.0;
}

static fftw_complex *fill(const tbrf_model *m, int dim, const int64_t n[3], double origin, uint64_t seed,
                          uint64_t r, int comp, const char *isa)
{
    setenv("TBRF_CPU_ISA", isa, 1);
    grid_geom g;
    memset(&g, 0, sizeof g);
    for (int d = 0; d < 3; d++) {
        g.n[d] = d < dim ? n[d] : 1;
        g.spacing[d] = 1.0;
        g.origin[d] = d < dim ? origin : 0.0;
    }
    const int64_t nh = g.n[0] / 2 + 1;
    fftw_complex *C = fftw_malloc(sizeof(fftw_complex) * (size_t)(nh * g.n[1] * g.n[2]));
    REQUIRE(C != NULL, NULL, "memory");
    const int st = tbrfi_fft_method_modes(m, dim, &g, seed, r, 2, 0.7, comp, 0, C);
    CHECK(st == TBRF_OK, "tbrfi_fft_method_modes: status %d", st);
    unsetenv("TBRF_CPU_ISA");
    return C;
}

/* Every entry of the scalar fill on isa against reference_mode. */
static void check_definition(int dim, int64_t nx, int64_t ny, int64_t nz, const char *isa)
{
    const int64_t n[3] = {nx, ny, nz}, nh = nx / 2 + 1, NZ = dim == 3 ? nz : 1;
    /* the box volume as fft.c forms it (unit spacing), and the amplitude */
    double V = 1.0;
    for (int d = 0; d < dim; d++)
        V *= (double)n[d];
    const double amp = sqrt(1.0 * (1.0 / V));
    tbrf_model *m = NULL;
    tbrf_model_callback(flat, NULL, 0.0, 1e6, &m);
    tbrf_model_set_amplitude(m, 1.0);
    if (!CHECK(tbrf_model_spectrum(m, dim, 0.5) == 1.0, "the callback model is not P = 1"))
        return;
    const uint64_t seed = 0x123456789ABCDEFull, r = 77;
    fftw_complex *C = fill(m, dim, n, 0.0, seed, r, -1, isa);
    int64_t bad = 0, first_bad = -1;
    for (int64_t iz = 0; iz < NZ; iz++)
        for (int64_t iy = 0; iy < ny; iy++)
            for (int64_t ix = 0; ix < nh; ix++) {
                const int64_t mx = ix, my = m_of(iy, ny), mz = dim == 3 ? m_of(iz, NZ) : 0;
                double re = 0.0, im = 0.0;
                const int zero = nyq(mx, nx) || nyq(my, ny) || (dim == 3 && nyq(mz, NZ)) ||
                                 (mx == 0 && my == 0 && mz == 0);
                if (!zero) {
                    const int canon = mx > 0 || my > 0 || (my == 0 && mz > 0);
                    const int64_t s = canon ? 1 : -1;
                    reference_mode(seed, r, s * mx, s * my, s * mz, &re, &im);
                    if (!canon)
                        im = -im;
                    re *= amp;
                    im *= amp;
                }
                const fftw_complex *c = C + (iz * ny + iy) * nh + ix;
                if (memcmp(&(*c)[0], &re, sizeof re) || memcmp(&(*c)[1], &im, sizeof im)) {
                    if (bad++ == 0)
                        first_bad = (iz * ny + iy) * nh + ix;
                }
            }
    CHECK(bad == 0, "%s, %dD %lldx%lldx%lld: %lld modes differ from the definition (first at %lld)", isa,
          dim, (long long)nx, (long long)ny, (long long)NZ, (long long)bad, (long long)first_bad);
    fftw_free(C);
    tbrf_model_destroy(m);
}

/* The vector fill and a shifted origin: the same bits on every ISA. */
static void check_same_bits(const tbrf_model *m, int dim, int64_t nx, int comp, double origin,
                            const char *isa)
{
    const int64_t n[3] = {nx, nx - 3, nx + 1}, nh = nx / 2 + 1;
    const int64_t cells = nh * n[1] * (dim == 3 ? n[2] : 1);
    fftw_complex *a = fill(m, dim, n, origin, 9, 3, comp, "portable");
    fftw_complex *b = fill(m, dim, n, origin, 9, 3, comp, isa);
    CHECK(memcmp(a, b, sizeof(fftw_complex) * (size_t)cells) == 0,
          "%s: %dD n=%lld comp %d origin %g differs from portable", isa, dim, (long long)nx, comp, origin);
    fftw_free(a);
    fftw_free(b);
}

int main(void)
{
    const int best = tbrfi_cpu_isa();
    printf("this CPU runs the mode fill up to %s\n", tbrfi_cpu_isa_name(best));
    tbrf_model *pl = NULL;
    tbrf_model_powerlaw(-3.0, 0.1, 2.5, &pl);
    for (int isa = CPU_ISA_PORTABLE; isa <= best; isa++) {
        check_definition(3, 16, 12, 10, tbrfi_cpu_isa_name(isa));
        check_definition(3, 17, 9, 7, tbrfi_cpu_isa_name(isa));
        check_definition(3, 1030, 3, 2, tbrfi_cpu_isa_name(isa));
        check_definition(3, 515, 2, 1, tbrfi_cpu_isa_name(isa));
        check_definition(2, 64, 33, 1, tbrfi_cpu_isa_name(isa));
        check_definition(2, 2, 5, 1, tbrfi_cpu_isa_name(isa));
        check_definition(3, 1, 4, 3, tbrfi_cpu_isa_name(isa));
        check_same_bits(pl, 3, 20, 1, 0.0, tbrfi_cpu_isa_name(isa));
        check_same_bits(pl, 2, 21, 0, 0.0, tbrfi_cpu_isa_name(isa));
        check_same_bits(pl, 3, 19, -1, 0.37, tbrfi_cpu_isa_name(isa));
        check_same_bits(pl, 2, 300, -1, -1.5, tbrfi_cpu_isa_name(isa));
    }
    tbrf_model_destroy(pl);
    return check_report("test_fft_modes_simd");
}
