/* bench_rng.c — throughput of tbrf's generators on this CPU, and the two
 * GPU-style micro-benchmarks of Phillips, Anderson & Glotzer run on the
 * CPU: Brownian dynamics (a generator state loaded and stored per particle
 * vs a keyed micro-stream made in registers) and DPD pairs (symmetric
 * pair streams). Prints figures and ratios against baselines measured in
 * the same run; asserts nothing.
 *
 *   bench_rng [scale]   (scale multiplies the work, default 1) */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tbrf/rng/lcg64.h"
#include "tbrf/rng/philox.h"
#include "tbrf/rng/saru.h"
#include "tbrf/rng/tea.h"

static volatile uint32_t sink32;
static volatile double sinkd;

static double now(void)
{
    return omp_get_wtime();
}

/* Best of three runs of fn(n) in seconds. */
#define BEST3(t, code)                          \
    do {                                        \
        t = 1e30;                               \
        for (int rep_ = 0; rep_ < 3; rep_++) {  \
            double t0_ = now();                 \
            code;                               \
            double dt_ = now() - t0_;           \
            if (dt_ < t)                        \
                t = dt_;                        \
        }                                       \
    } while (0)

static void gen_philox(uint32_t *w, int64_t n)
{
    philox4x32_key_t k = {{1, 2}};
    for (int64_t i = 0; i + 4 <= n; i += 4) {
        philox4x32_ctr_t c = {{(uint32_t)i, (uint32_t)(i >> 32), 0, 0}};
        philox4x32_ctr_t r = philox4x32(c, k);
        memcpy(w + i, r.v, 16);
    }
}

static void gen_saru(uint32_t *w, int64_t n)
{
    tbrf_saru s = tbrf_saru_seed1(1);
    for (int64_t i = 0; i < n; i++)
        w[i] = tbrf_saru_next(&s);
}

static void gen_tea8(uint32_t *w, int64_t n)
{
    uint32_t k0 = tbrf_seed_prehash(1);
    for (int64_t i = 0; i + 2 <= n; i += 2) {
        uint32_t v0 = (uint32_t)(i >> 1), v1 = 0;
        tbrf_tea8(&v0, &v1, k0, TBRF_TEA_K1, TBRF_TEA_K2, TBRF_TEA_K3);
        w[i] = v0;
        w[i + 1] = v1;
    }
}

static void gen_lcg(uint32_t *w, int64_t n)
{
    uint64_t x = 1;
    for (int64_t i = 0; i < n; i++) {
        x = tbrf_lcg64_step(x);
        w[i] = tbrf_lcg64_out(x);
    }
}

static void gen_lcgp(uint32_t *w, int64_t n)
{
    uint64_t x = 1;
    for (int64_t i = 0; i < n; i++) {
        x = tbrf_lcg64_step(x);
        w[i] = tbrf_lcg64_out_permuted(x);
    }
}

/* the block form, 256 states per block */
static void gen_lcg_block(uint32_t *w, int64_t n)
{
    enum { S = 256 };
    uint64_t y[S], t[S], A = 1, C = 0, xl = 1;
    for (int j = 0; j < S; j++) {
        A *= TBRF_LCG64_A;
        C = TBRF_LCG64_A * C + TBRF_LCG64_C;
        y[j] = A;
        t[j] = C;
    }
    for (int64_t i = 0; i + S <= n; i += S) {
#pragma omp simd
        for (int j = 0; j < S; j++)
            w[i + j] = tbrf_lcg64_out_permuted(t[j] + xl * y[j]);
        xl = t[S - 1] + xl * y[S - 1];
    }
}

/* ------------------------------------------------ Brownian dynamics */

/* Particle i's move: amp times three words as uniforms in [-1,1). */
static inline void bd_move(double *x, int64_t i, double amp, uint32_t a, uint32_t b, uint32_t c)
{
    x[3 * i] += amp * tbrf_s11(a);
    x[3 * i + 1] += amp * tbrf_s11(b);
    x[3 * i + 2] += amp * tbrf_s11(c);
}

/* One step of overdamped Langevin dynamics in 3D as HOOMD-blue does it:
 * x += amp r with r uniform in [-1,1) per axis (amp = sqrt(6 D dt) gives
 * the right variance), 3 words per particle. */
static void bd_stored(int64_t np, double *x, tbrf_saru *state, double amp)
{
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < np; i++) {
        tbrf_saru s = state[i]; /* load */
        uint32_t a = tbrf_saru_next(&s), b = tbrf_saru_next(&s), c = tbrf_saru_next(&s);
        state[i] = s; /* store */
        bd_move(x, i, amp, a, b, c);
    }
}

static void bd_keyed(int64_t np, double *x, uint32_t seed, uint32_t step, double amp)
{
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < np; i++) {
        tbrf_saru s = tbrf_stream_id(seed, step, (uint32_t)i); /* in registers */
        uint32_t a = tbrf_saru_next(&s), b = tbrf_saru_next(&s), c = tbrf_saru_next(&s);
        bd_move(x, i, amp, a, b, c);
    }
}

static void bd_philox(int64_t np, double *x, uint64_t seed, uint32_t step, double amp)
{
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < np; i++) {
        philox4x32_ctr_t r = tbrf_philox_id(seed, step, (uint32_t)i, 0);
        bd_move(x, i, amp, r.v[0], r.v[1], r.v[2]);
    }
}

/* ------------------------------------------------------------- DPD */

/* The random force of each pair (i, j) needs one uniform in [-1,1) shared
 * by both particles; every particle sums over its neighbours (each pair
 * is visited twice, once from each side, as a GPU thread per particle
 * would). */
static void dpd(int64_t np, int nb, const uint32_t *nbr, double *f, uint32_t seed, uint32_t step,
                int kind)
{
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < np; i++) {
        double acc = 0;
        for (int k = 0; k < nb; k++) {
            uint32_t j = nbr[i * nb + k];
            uint32_t w;
            if (kind == 0) {
                tbrf_saru s = tbrf_stream_pair(seed, step, (uint32_t)i, j);
                w = tbrf_saru_next(&s);
            } else {
                w = tbrf_philox_pair(seed, step, (uint32_t)i, j, 0).v[0];
            }
            acc += tbrf_s11(w);
        }
        f[i] = acc;
    }
}

int main(int argc, char **argv)
{
    double scale = argc > 1 ? atof(argv[1]) : 1;
    if (!(scale > 0))
        scale = 1;
    const int64_t n = (int64_t)(scale * (1 << 24)) & ~(int64_t)255;
    uint32_t *w = malloc((size_t)n * 4);
    if (!w)
        return 1;
    printf("# bench_rng: %d OpenMP threads available\n", omp_get_max_threads());
    printf("\n## Generator throughput, one core (%lld words)\n\n", (long long)n);
    printf("| generator | GB/s | Gwords/s | ratio to philox |\n|---|---|---|---|\n");
    struct {
        const char *name;
        void (*fn)(uint32_t *, int64_t);
    } g[] = {{"philox4x32-10", gen_philox}, {"saru (stepping)", gen_saru},
             {"tea8 (hash of 2 words)", gen_tea8}, {"lcg64 (top 32 bits)", gen_lcg},
             {"lcg64-permuted", gen_lcgp}, {"lcg64-permuted, block form s=256", gen_lcg_block}};
    double tp = 0;
    for (size_t k = 0; k < sizeof g / sizeof g[0]; k++) {
        double t;
        BEST3(t, g[k].fn(w, n));
        sink32 = w[n / 2];
        if (k == 0)
            tp = t;
        printf("| %s | %.2f | %.3f | %.2f |\n", g[k].name, 4e-9 * (double)n / t,
               1e-9 * (double)n / t, tp / t);
    }
    free(w);

    /* Brownian dynamics */
    const int64_t np = (int64_t)(scale * 2000000);
    double *x = calloc((size_t)np * 3, sizeof(double));
    tbrf_saru *st = malloc((size_t)np * sizeof *st);
    if (!x || !st)
        return 1;
    for (int64_t i = 0; i < np; i++)
        st[i] = tbrf_saru_seed2(7, (uint32_t)i);
    const int steps = 5;
    double tst, tkey, tphi;
    BEST3(tst, for (int s = 0; s < steps; s++) bd_stored(np, x, st, 0.1));
    BEST3(tkey, for (int s = 0; s < steps; s++) bd_keyed(np, x, 7, (uint32_t)s, 0.1));
    BEST3(tphi, for (int s = 0; s < steps; s++) bd_philox(np, x, 7, (uint32_t)s, 0.1));
    sinkd = x[np];
    double ps = (double)np * steps;
    printf("\n## Brownian dynamics, %lld particles x %d steps, %d threads\n\n", (long long)np,
           steps, omp_get_max_threads());
    printf("| random numbers from | ns per particle-step | ratio to stored state |\n|---|---|---|\n");
    printf("| Saru state loaded/stored per particle (8 B) | %.2f | 1.00 |\n", 1e9 * tst / ps);
    printf("| keyed micro-stream: TEA8(id, step) -> Saru | %.2f | %.2f |\n", 1e9 * tkey / ps,
           tst / tkey);
    printf("| keyed Philox4x32-10 (id, step) | %.2f | %.2f |\n", 1e9 * tphi / ps, tst / tphi);
    free(st);

    /* DPD pairs: 40 neighbours per particle, random but fixed */
    const int nb = 40;
    const int64_t npd = np / 4;
    uint32_t *nbr = malloc((size_t)npd * nb * sizeof *nbr);
    if (!nbr)
        return 1;
    uint64_t r = 99;
    for (int64_t i = 0; i < npd * nb; i++) {
        r = tbrf_lcg64_step(r);
        int64_t p = i / nb, off = (int64_t)(tbrf_lcg64_out_permuted(r) % 2001) - 1000;
        int64_t j = (p + off + npd) % npd;
        nbr[i] = (uint32_t)(j == p ? (p + 1) % npd : j);
    }
    double tsaru, tphil;
    BEST3(tsaru, dpd(npd, nb, nbr, x, 7, 3, 0));
    BEST3(tphil, dpd(npd, nb, nbr, x, 7, 3, 1));
    sinkd = x[1];
    double pairs = (double)npd * nb;
    printf("\n## DPD pair forces, %lld particles x %d neighbours, %d threads\n\n",
           (long long)npd, nb, omp_get_max_threads());
    printf("| pair stream | ns per pair visit | ratio to Philox |\n|---|---|---|\n");
    printf("| Philox4x32-10 (min, max, step) | %.2f | 1.00 |\n", 1e9 * tphil / pairs);
    printf("| TEA8(min, max; step, seed) -> Saru | %.2f | %.2f |\n", 1e9 * tsaru / pairs,
           tphil / tsaru);
    free(nbr);
    free(x);
    return 0;
}
