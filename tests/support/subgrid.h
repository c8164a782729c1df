/* subgrid.h — splits a grid into boxes and checks that every box, set with
 * tbrf_set_subgrid and executed alone, gives bitwise the whole grid's
 * values at its cells (decomposition invariance, doc/decomposition.md).
 * Shared by tests/core/test_decomposition.c and the GPU conformance suite.
 * Include after check.h (or testutil.h). */
#ifndef TBRF_TEST_SUBGRID_H
#define TBRF_TEST_SUBGRID_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tbrf.h"

/* Boundary b of `parts` uneven parts of n cells (0 and n at the ends): the
 * interior ones are moved off the even split by one cell on alternate
 * boundaries, so box corners land on odd and even columns, SIMD lanes and
 * tile edges alike. Needs n >= 2 parts. */
static inline int64_t sg_bound(int64_t n, int parts, int b)
{
    int64_t x = n * b / parts;
    if (b > 0 && b < parts && (b % 2) && x + 1 < n * (b + 1) / parts)
        x += 1;
    return x;
}

/* Splits grid (origin, spacing, n) into parts[0] x parts[1] x parts[2]
 * boxes, evaluates each box of realization r on plan p and compares it,
 * byte for byte, with the whole grid's values `whole` (vsize bytes per
 * cell: value size times components). Returns the number of boxes whose
 * bytes differ (each also a counted CHECK failure naming the box), or -1
 * when a call failed. */
static inline int sg_check_split(tbrf_plan *p, const char *what, const double origin[3],
                                 const double spacing[3], const int64_t n[3], const int parts[3],
                                 uint64_t r, const void *whole, size_t vsize)
{
    int bad = 0;
    for (int bz = 0; bz < parts[2]; bz++)
        for (int by = 0; by < parts[1]; by++)
            for (int bx = 0; bx < parts[0]; bx++) {
                const int b[3] = {bx, by, bz};
                int64_t start[3], count[3];
                for (int d = 0; d < 3; d++) {
                    start[d] = sg_bound(n[d], parts[d], b[d]);
                    count[d] = sg_bound(n[d], parts[d], b[d] + 1) - start[d];
                }
                int st = tbrf_set_subgrid(p, origin, spacing, n, start, count);
                if (!CHECK(st == TBRF_OK, "%s: set_subgrid: %s", what, tbrf_plan_message(p)))
                    return -1;
                if (!CHECK(tbrf_plan_count(p) == count[0] * count[1] * count[2],
                           "%s: plan_count %lld", what, (long long)tbrf_plan_count(p)))
                    return -1;
                char *v = malloc(vsize * (size_t)(count[0] * count[1] * count[2]));
                if (!v || tbrf_execute(p, r, v) != TBRF_OK) {
                    CHECK_FAIL("%s: execute of box (%d,%d,%d): %s", what, bx, by, bz, tbrf_plan_message(p));
                    free(v);
                    return -1;
                }
                int64_t diff = 0;
                for (int64_t k = 0; k < count[2]; k++)
                    for (int64_t j = 0; j < count[1]; j++) {
                        const int64_t from = ((start[2] + k) * n[1] + start[1] + j) * n[0] + start[0];
                        const size_t row = vsize * (size_t)count[0];
                        diff += memcmp(v + row * (size_t)(k * count[1] + j),
                                       (const char *)whole + vsize * (size_t)from, row) != 0;
                    }
                free(v);
                if (!CHECK(diff == 0, "%s: box (%d,%d,%d) of %dx%dx%d, cells %lld+%lld, %lld+%lld, "
                           "%lld+%lld: %lld rows differ from the whole grid's bits", what, bx, by, bz,
                           parts[0], parts[1], parts[2], (long long)start[0], (long long)count[0],
                           (long long)start[1], (long long)count[1], (long long)start[2],
                           (long long)count[2], (long long)diff))
                    bad++;
            }
    return bad;
}

/* The splits every method is checked on: slabs along z, pencils (y, z),
 * blocks (x, y, z) and an x-only split (rows cut mid-way: the SIMD kernels'
 * start column), with as many parts as the grid allows. */
static inline int sg_check_all_splits(tbrf_plan *p, const char *what, const double origin[3],
                                      const double spacing[3], const int64_t n[3], uint64_t r,
                                      const void *whole, size_t vsize)
{
    const int splits[4][3] = {{1, 1, 3}, {1, 2, 3}, {3, 2, 2}, {5, 1, 1}};
    int bad = 0;
    for (int s = 0; s < 4; s++) {
        int parts[3];
        for (int d = 0; d < 3; d++)
            parts[d] = n[d] >= 2 * splits[s][d] ? splits[s][d] : 1;
        int b = sg_check_split(p, what, origin, spacing, n, parts, r, whole, vsize);
        if (b < 0)
            return -1;
        bad += b;
    }
    return bad;
}

#endif
