/* kat_body.h — the answer to one known-answer vector of
 * tests/data/kat_vectors.txt, written once for every harness: it compiles
 * as C (test_rng_kat.c), CUDA and the CUDA emulator's C++
 * (test_rng_cuda.cu, on the host and in a kernel) and OpenCL C
 * (test_rng_opencl.c reads it at run time through -I tests/), through
 * tbrf/rng/features.h. The harnesses read the file (rng_kat.h), map each
 * vector's name to a kind (kat_kind) and compare the words computed here.
 *
 *   kind  0 philox4x32 (in: ctr0..3, key0..1), 1-3 saru1-3 (seed words),
 *         4 tea8 (v0 v1 k0..k3), 5 prehash (gs), 6 lcg64, 7 lcg64-permuted
 *         (seed hi, lo)
 *   a     the input words, o the output words (nout of them for the
 *         streams: saru, lcg64); returns the number of words written. */
#ifndef TBRF_TEST_KAT_BODY_H
#define TBRF_TEST_KAT_BODY_H

#include "tbrf/rng/features.h"
#include "tbrf/rng/lcg64.h"
#include "tbrf/rng/philox.h"
#include "tbrf/rng/saru.h"
#include "tbrf/rng/tea.h"

#define TBRF_KAT_KINDS 8

TBRF_DEVICE_FN int tbrf_kat_compute(int kind, const TBRF_GLOBAL uint32_t *a, int nout,
                                    TBRF_GLOBAL uint32_t *o)
{
    if (kind == 0) {
        philox4x32_ctr_t c = {{a[0], a[1], a[2], a[3]}};
        philox4x32_key_t k = {{a[4], a[5]}};
        philox4x32_ctr_t r = philox4x32(c, k);
        for (int j = 0; j < 4; j++)
            o[j] = r.v[j];
        return 4;
    }
    if (kind >= 1 && kind <= 3) {
        tbrf_saru s = kind == 1   ? tbrf_saru_seed1(a[0])
                      : kind == 2 ? tbrf_saru_seed2(a[0], a[1])
                                  : tbrf_saru_seed3(a[0], a[1], a[2]);
        for (int j = 0; j < nout; j++)
            o[j] = tbrf_saru_next(&s);
        return nout;
    }
    if (kind == 4) {
        uint32_t v0 = a[0], v1 = a[1];
        tbrf_tea8(&v0, &v1, a[2], a[3], a[4], a[5]);
        o[0] = v0;
        o[1] = v1;
        return 2;
    }
    if (kind == 5) {
        o[0] = tbrf_seed_prehash(a[0]);
        return 1;
    }
    if (kind == 6 || kind == 7) {
        uint64_t x = (uint64_t)a[0] << 32 | a[1];
        for (int j = 0; j < nout; j++) {
            x = tbrf_lcg64_step(x);
            o[j] = kind == 6 ? tbrf_lcg64_out(x) : tbrf_lcg64_out_permuted(x);
        }
        return nout;
    }
    return -1;
}

#endif
