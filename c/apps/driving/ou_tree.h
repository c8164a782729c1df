/* ou_tree.h — the driver's OU coefficients by random access in time
 * (doc/driving.md, "Time: an OU process by random access").
 *
 * Each of n processes carries nc real stationary AR(1) sequences X(j),
 * j = 0 .. 2^TBRF_OU_DEPTH, of variance 1/2 (so a complex pair has
 * E|a|^2 = 1) and lag-one correlation f = e^{-lambda}, lambda = dt / T.
 * They are drawn on a dyadic tree: X(0), then X(N) given X(0), then every
 * midpoint given the two ends of its interval (the OU bridge), each draw
 * from Philox keyed by (seed, process, the node's index j), so X(j) is a
 * pure function of (seed, process, lambda, j) computed in O(depth). A
 * cache of the current block's nodes makes consecutive indices cost one
 * draw each (amortised); the values never depend on the cache. */
#ifndef TBRF_OU_TREE_H
#define TBRF_OU_TREE_H

#include <stdint.h>

/* Depth of the tree: indices 0 .. 2^48 (2.8e14 updates). */
#define TBRF_OU_DEPTH 48
#define TBRF_OU_UPDATES ((int64_t)1 << TBRF_OU_DEPTH)
/* Most levels of a block the cache holds (2^16 consecutive indices). */
#define TBRF_OU_CACHE_MAX 16

typedef struct ou_tree {
    uint64_t seed;
    int64_t n;          /* processes */
    int nc;             /* reals per process */
    int threads;        /* OpenMP threads (tbrf_threads) */
    const int32_t *m;   /* 3 per process: w0 packs them (a box's modes); NULL: w0 = index */
    uint32_t w1;        /* Philox word 1 of the first 4 reals; w1 + 1 the next 4 */
    /* the bridge at half-length 2^e: mean mu[e] (X(l) + X(r)), sd sd[e];
     * the far root X(N) = rootf X(0) + rootsd xi */
    double mu[TBRF_OU_DEPTH], sd[TBRF_OU_DEPTH], rootf, rootsd;
    /* the cache: block blk of 2^levels indices, its ends bl, br (in
     * pool[0], pool[1]), node values lv (levels states) with their
     * indices; pool[2] is lv, scratch while a block's ends are drawn */
    int levels;
    int64_t blk;
    const double *bl, *br;
    double *pool[3], *lv;
    int64_t *lidx;
} ou_tree;

/* Bytes tbrfi_ou_init allocates for n processes of nc reals and `levels`
 * cached levels. */
double tbrfi_ou_bytes(int64_t n, int nc, int levels);

/* Sets t up (lambda = dt / T > 0 finite, levels 1 .. TBRF_OU_CACHE_MAX)
 * and draws the two roots. m is kept (not copied). 0, or -1 when out of
 * memory (t is then safe to free). */
int tbrfi_ou_init(ou_tree *t, uint64_t seed, int64_t n, int nc, const int32_t *m, uint32_t w1,
                  double lambda, int levels, int threads);

/* X(j) of every process into out (nc doubles per process), 0 <= j <=
 * TBRF_OU_UPDATES. */
void tbrfi_ou_value(ou_tree *t, int64_t j, double *out);

void tbrfi_ou_free(ou_tree *t);

#endif
