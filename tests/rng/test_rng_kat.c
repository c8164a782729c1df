/* test_rng_kat.c — the known-answer vectors of tests/data/kat_vectors.txt
 * on the host (C) build of the tbrf/rng/ headers (kat_body.h, the
 * computation the CUDA and OpenCL harnesses run too) and through the public
 * API.
 *   test_rng_kat KAT_FILE */
#include "support/check.h"
#include "rng/kat_body.h"
#include "rng/rng_kat.h"
#include "tbrf.h"

/* The number of input words of each kind (kat_body.h). */
static const int kat_nin[TBRF_KAT_KINDS] = {6, 1, 2, 3, 6, 1, 2, 2};

/* The answer of one vector through the public API; the number of words
 * or -1. */
static int compute_api(const kat *k, int kind, uint32_t *o)
{
    switch (kind) {
    case 0:
        tbrf_rng_philox4x32(k->in, k->in + 4, o);
        return 4;
    case 1:
    case 2:
    case 3: {
        uint32_t st[2];
        if (tbrf_rng_saru_seed(k->nin, k->in, st) || tbrf_rng_saru_next(st, k->nout, o))
            return -1;
        return k->nout;
    }
    case 4:
        o[0] = k->in[0];
        o[1] = k->in[1];
        tbrf_rng_tea8(o, k->in + 2);
        return 2;
    case 5:
        o[0] = tbrf_rng_seed_prehash(k->in[0]);
        return 1;
    default: {
        uint64_t x = (uint64_t)k->in[0] << 32 | k->in[1];
        if (tbrf_rng_u32(kind == 7 ? TBRF_GEN_LCG64_PERMUTED : TBRF_GEN_LCG64, x, 0, 0, k->nout, o))
            return -1;
        return k->nout;
    }
    }
}

/* Computes the answer of one vector; returns the number of words or -1. */
static int compute(const kat *k, uint32_t *o, int use_api)
{
    int kind = kat_kind(k);
    if (kind < 0 || k->nin != kat_nin[kind])
        return -1;
    return use_api ? compute_api(k, kind, o) : tbrf_kat_compute(kind, k->in, k->nout, o);
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
