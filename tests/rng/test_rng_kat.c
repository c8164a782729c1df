/* test_rng_kat.c — the known-answer vectors of tests/data/kat_vectors.txt
 * on the host (C) build of the rng/ headers and through the public API.
 *   test_rng_kat KAT_FILE */
#include "support/check.h"
#include "tbrf/rng/lcg64.h"
#include "tbrf/rng/philox.h"
#include "tbrf/rng/saru.h"
#include "tbrf/rng/tea.h"
#include "rng/rng_kat.h"
#include "tbrf.h"

/* Computes the answer of one vector; returns the number of words or -1. */
static int compute(const kat *k, uint32_t *o, int use_api)
{
    const char *nm = k->name;
    if (!strcmp(nm, "philox4x32") && k->nin == 6) {
        if (use_api) {
            tbrf_rng_philox4x32(k->in, k->in + 4, o);
        } else {
            philox4x32_ctr_t c = {{k->in[0], k->in[1], k->in[2], k->in[3]}};
            philox4x32_key_t kk = {{k->in[4], k->in[5]}};
            philox4x32_ctr_t r = philox4x32(c, kk);
            memcpy(o, r.v, 16);
        }
        return 4;
    }
    if (!strncmp(nm, "saru", 4) && nm[4] >= '1' && nm[4] <= '3' && k->nin == nm[4] - '0') {
        if (use_api) {
            uint32_t st[2];
            if (tbrf_rng_saru_seed(k->nin, k->in, st) || tbrf_rng_saru_next(st, k->nout, o))
                return -1;
        } else {
            tbrf_saru s = k->nin == 1   ? tbrf_saru_seed1(k->in[0])
                          : k->nin == 2 ? tbrf_saru_seed2(k->in[0], k->in[1])
                                        : tbrf_saru_seed3(k->in[0], k->in[1], k->in[2]);
            for (int i = 0; i < k->nout; i++)
                o[i] = tbrf_saru_next(&s);
        }
        return k->nout;
    }
    if (!strcmp(nm, "tea8") && k->nin == 6) {
        o[0] = k->in[0];
        o[1] = k->in[1];
        if (use_api)
            tbrf_rng_tea8(o, k->in + 2);
        else
            tbrf_tea8(&o[0], &o[1], k->in[2], k->in[3], k->in[4], k->in[5]);
        return 2;
    }
    if (!strcmp(nm, "prehash") && k->nin == 1) {
        o[0] = use_api ? tbrf_rng_seed_prehash(k->in[0]) : tbrf_seed_prehash(k->in[0]);
        return 1;
    }
    if (!strncmp(nm, "lcg64", 5) && k->nin == 2) {
        int perm = !strcmp(nm, "lcg64-permuted");
        uint64_t x = (uint64_t)k->in[0] << 32 | k->in[1];
        if (use_api) {
            if (tbrf_rng_u32(perm ? TBRF_GEN_LCG64_PERMUTED : TBRF_GEN_LCG64, x, 0, 0, k->nout, o))
                return -1;
        } else {
            for (int i = 0; i < k->nout; i++) {
                x = tbrf_lcg64_step(x);
                o[i] = perm ? tbrf_lcg64_out_permuted(x) : tbrf_lcg64_out(x);
            }
        }
        return k->nout;
    }
    return -1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_rng_kat KAT_FILE\n");
        return 2;
    }
    kat v[128];
    int bad, n = kat_read(argv[1], v, 128, &bad);
    CHECK(n >= 20, "read %d vectors from %s (bad line %d)", n, argv[1], bad);
    int per[8] = {0};
    for (int i = 0; i < n; i++) {
        for (int api = 0; api < 2; api++) {
            uint32_t o[8] = {0};
            int m = compute(&v[i], o, api);
            CHECK(m == v[i].nout, "line %d (%s): cannot compute (%d words)", v[i].line, v[i].name,
                  m);
            for (int j = 0; j < m && j < v[i].nout; j++)
                CHECK(o[j] == v[i].out[j], "line %d %s (%s) word %d: got %08x want %08x",
                      v[i].line, v[i].name, api ? "api" : "header", j, o[j], v[i].out[j]);
        }
        per[!strcmp(v[i].name, "philox4x32") ? 0 : !strncmp(v[i].name, "saru", 4) ? 1
            : !strcmp(v[i].name, "tea8") ? 2 : !strcmp(v[i].name, "prehash") ? 3 : 4]++;
    }
    /* every generator must be covered */
    for (int g = 0; g < 5; g++)
        CHECK(per[g] >= 1, "no vectors for generator group %d", g);
    printf("%d vectors: philox %d, saru %d, tea8 %d, prehash %d, lcg64 %d\n", n, per[0], per[1],
           per[2], per[3], per[4]);
    return check_report("test_rng_kat");
}
