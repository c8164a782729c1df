/* test_driving_wide.c — sparse directions for wide bands
 * (tbrf_driver_params.directions; doc/driving.md, "Wide bands").
 *
 * A power-law shell spectrum k^-2 over k = 1..16 (2 pi / L) in a 3D box,
 * directions D = 8 (about TurbGen's mode count at angles_exp = 1), over R =
 * 200 seeds (fixed), one time each:
 *  - the kept modes' count has the expectation sum_s min(N_s, D s) (N_s
 *    the shell's modes, counted here by enumerating the lattice): the mean
 *    over the seeds within 4 standard errors (from the seeds' scatter);
 *  - each shell's share of the force's power has the full band's share,
 *    sum_{m in s} P(|m|) / sum_m P(|m|) with P(k) = k^-4 per mode
 *    (computed here from the lattice): the share estimated as a ratio of
 *    means over the seeds, sum_r |coef|^2 in s / sum_r |coef|^2 (a mean of
 *    per-seed ratios would carry the bias of the few shell-1 modes' OU
 *    noise in its denominator, which the full band has as well), within
 *    4 standard errors (delta method, from the seeds' scatter);
 *  - the selection is a pure function of the seed: two drivers alike (1
 *    and 2 threads) list the same modes with bitwise equal coefficients;
 *  - directions < 0 and directions > 0 on a non-periodic domain are
 *    refused. */
#include <stdlib.h>
#include <string.h>

#include "support/testutil.h"

static const double PI = 3.14159265358979323846;
enum { R = 200, S = 16, D = 8, MAXM = 20000 };

/* s = round(|m|) of each lattice mode (one of each +-m pair) with
 * 1 <= |m| <= 16; N_s and the full band's share of shell s. */
static void full_band(int64_t nsh[S + 2], double share[S + 2])
{
    double tot = 0.0;
    memset(share, 0, sizeof(double) * (S + 2));
    memset(nsh, 0, sizeof(int64_t) * (S + 2));
    for (int x = 0; x <= S; x++)
        for (int y = -S; y <= S; y++)
            for (int z = -S; z <= S; z++) {
                if (x == 0 && (y < 0 || (y == 0 && z <= 0)))
                    continue; /* one of each +-m pair, never 0 */
                const double k = sqrt((double)(x * x + y * y + z * z));
                if (k < 1.0 || k > (double)S)
                    continue;
                const int s = (int)floor(k + 0.5);
                const double p = pow(k, -4.0);
                nsh[s]++;
                share[s] += p;
                tot += p;
            }
    for (int s = 0; s < S + 2; s++)
        share[s] /= tot;
}

static tbrf_driver *make(const tbrf_model *m, uint64_t seed, int dirs, int threads)
{
    tbrf_driver_params p;
    tbrf_driver_default_params(&p);
    p.directions = dirs;
    p.zeta = 0.5;
    p.threads = threads;
    tbrf_driver *d = NULL;
    CHECK(tbrf_driver_make(m, seed, &p, &d) == TBRF_OK, "make: %s", tbrf_driver_message(d));
    return d;
}

int main(void)
{
    tbrf_model *model = NULL;
    CHECK(tbrf_model_powerlaw(-4.0, 2 * PI, 2 * PI * S, &model) == TBRF_OK, "model");
    int64_t nsh[S + 2];
    double share[S + 2], want = 0.0;
    full_band(nsh, share);
    int64_t nfull = 0;
    for (int s = 1; s <= S; s++) {
        want += (double)(nsh[s] < D * s ? nsh[s] : D * s);
        nfull += nsh[s];
    }
    tbrf_driver *full = make(model, 1, 0, 1);
    tbrf_driver_info info;
    tbrf_driver_get_info(full, &info);
    CHECK(info.modes == nfull, "full band: %lld modes, the lattice %lld", (long long)info.modes,
          (long long)nfull);
    tbrf_driver_destroy(full);

    int32_t *m = tu_malloc(sizeof(int32_t) * 3 * MAXM);
    double *c = tu_malloc(sizeof(double) * 6 * MAXM);
    double cnt = 0.0, cnt2 = 0.0, (*ps)[S + 2] = tu_malloc(sizeof(double) * R * (S + 2)), tot[R];
    for (int r = 0; r < R; r++) {
        tbrf_driver *d = make(model, 1000 + (uint64_t)r, D, 1);
        int64_t n = MAXM;
        CHECK(tbrf_driver_modes(d, 0.3, &n, m, c) == TBRF_OK && n <= MAXM, "modes: %s",
              tbrf_driver_message(d));
        cnt += (double)n;
        cnt2 += (double)n * (double)n;
        memset(ps[r], 0, sizeof ps[r]);
        tot[r] = 0.0;
        for (int64_t i = 0; i < n; i++) {
            const double k = sqrt((double)(m[3 * i] * m[3 * i] + m[3 * i + 1] * m[3 * i + 1] +
                                           m[3 * i + 2] * m[3 * i + 2]));
            double p2 = 0.0;
            for (int j = 0; j < 6; j++)
                p2 += c[6 * i + j] * c[6 * i + j];
            ps[r][(int)floor(k + 0.5)] += p2;
            tot[r] += p2;
        }
        tbrf_driver_destroy(d);
    }
    const double mc = cnt / R, sc = sqrt((cnt2 / R - mc * mc) / (R - 1));
    CHECK(fabs(mc - want) <= 4.0 * sc, "kept modes %.1f +- %.1f, expected %.1f", mc, sc, want);
    printf("k = 1..%d: %lld modes in the band; directions %d keeps %.1f +- %.1f (expected %.1f)\n",
           S, (long long)nfull, D, mc, sc, want);
    double ttot = 0.0;
    for (int r = 0; r < R; r++)
        ttot += tot[r];
    for (int s = 1; s <= S; s++) {
        double a = 0.0, e2 = 0.0;
        for (int r = 0; r < R; r++)
            a += ps[r][s];
        a /= ttot;
        for (int r = 0; r < R; r++)
            e2 += (ps[r][s] - a * tot[r]) * (ps[r][s] - a * tot[r]);
        const double se = sqrt(e2 / (R - 1) / R) / (ttot / R);
        CHECK(fabs(a - share[s]) <= 4.0 * se, "shell %d: share %.5f +- %.5f, the band's %.5f", s,
              a, se, share[s]);
        printf("  shell %2d (%4lld modes, keeps ~%3d): power share %.5f +- %.5f, full band %.5f\n",
               s, (long long)nsh[s], nsh[s] < D * s ? (int)nsh[s] : D * s, a, se, share[s]);
    }

    /* the selection depends on the seed alone */
    tbrf_driver *a = make(model, 77, D, 1), *b = make(model, 77, D, 2);
    int64_t na = MAXM, nb = MAXM;
    int32_t *mb = tu_malloc(sizeof(int32_t) * 3 * MAXM);
    double *cb = tu_malloc(sizeof(double) * 6 * MAXM);
    CHECK(tbrf_driver_modes(a, 12.5, &na, m, c) == TBRF_OK &&
              tbrf_driver_modes(b, 12.5, &nb, mb, cb) == TBRF_OK && na == nb &&
              memcmp(m, mb, sizeof(int32_t) * 3 * (size_t)na) == 0 &&
              memcmp(c, cb, sizeof(double) * 6 * (size_t)na) == 0,
          "threads 1 and 2: the same modes and bits");
    tbrf_driver_destroy(a);
    tbrf_driver_destroy(b);

    tbrf_driver_params p;
    tbrf_driver_default_params(&p);
    p.directions = -1;
    tbrf_driver *bad = NULL;
    CHECK(tbrf_driver_make(model, 1, &p, &bad) == TBRF_ERR_INVALID &&
              strstr(tbrf_driver_message(bad), "directions"), "directions < 0 refused");
    tbrf_driver_destroy(bad);
    p.directions = 4;
    p.periodic = 0;
    bad = NULL;
    CHECK(tbrf_driver_make(model, 1, &p, &bad) == TBRF_ERR_UNSUPPORTED &&
              strstr(tbrf_driver_message(bad), "directions"), "directions on a domain refused");
    tbrf_driver_destroy(bad);
    free(m);
    free(c);
    free(mb);
    free(cb);
    free(ps);
    tbrf_model_destroy(model);
    return check_report("test_driving_wide");
}
