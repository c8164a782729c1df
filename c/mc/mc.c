/* mc.c — Monte Carlo integration over [0,1]^d (or a box) with the 64-bit
 * LCG, sequential or in block (vector) form with OpenMP, and the built-in
 * test integrands (Genz's six families, NAG's D01GBF example) with their
 * exact integrals.
 *
 * Determinism: point p is the dim-tuple of LCG numbers p dim .. p dim +
 * dim - 1 after x_0 = seed. Statistics are kept per fixed chunk of
 * MC_CHUNK points (shifted sums) and combined in chunk order, so the result
 * does not depend on the algorithm, the block size or the thread count. */
#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>

#include "tbrf/rng/lcg64.h"
#include "tbrf/rng/lcg64_block.h"
#include "backends/backend.h"
#include "kernels/mc_body.h"
#include "tbrf.h"

#define MC_CHUNK TBRF_MC_CHUNK /* points per statistics chunk (kernels/mc_body.h) */
#define MC_SEQ_BATCH 256 /* points per integrand call on the sequential path */
#define MC_MAX_BLOCK_WORDS ((int64_t)1 << 20) /* largest block (numbers), any block */
#define MC_DEVICE_MAX_POINTS ((int64_t)1 << 40) /* tbrf_mc_integrate_device (include/tbrf.h) */
#define MC_CACHE_WORDS 1024                   /* largest automatic block: 24 KiB */

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

const char *tbrf_mc_integrand_name(int integrand)
{
    static const char *const names[] = {"oscillatory", "productpeak", "cornerpeak", "gaussian",
                                        "continuous", "discontinuous", "nag"};
    if (integrand < 0 || integrand > TBRF_MC_NAG)
        return NULL;
    return names[integrand];
}

/* ------------------------------------------------------- integrands */

typedef struct genz {
    int kind, dim;
    double *a, *u;
} genz;

/* The status of a built-in integrand's parameters (tbrf_mc_exact's rules). */
static int genz_check(int kind, int dim, const double *a, const double *u)
{
    if (!tbrf_mc_integrand_name(kind))
        return TBRF_ERR_INVALID;
    if (dim < 1 || dim > 1024)
        return TBRF_ERR_UNSUPPORTED;
    if ((kind == TBRF_MC_DISCONTINUOUS && dim < 2) || (kind == TBRF_MC_CORNER_PEAK && dim > 20) ||
        (kind == TBRF_MC_NAG && dim != 4))
        return TBRF_ERR_UNSUPPORTED;
    for (int i = 0; i < dim; i++) {
        if (a && !(a[i] > 0 && isfinite(a[i])))
            return TBRF_ERR_INVALID;
        if (u && !(u[i] >= 0 && u[i] <= 1))
            return TBRF_ERR_INVALID;
    }
    return TBRF_OK;
}

/* g from checked parameters (a, u NULL: the defaults); the caller frees g->a. */
static int genz_make(int kind, int dim, const double *a, const double *u, genz *g)
{
    memset(g, 0, sizeof *g);
    int st = genz_check(kind, dim, a, u);
    if (st)
        return st;
    g->a = malloc(2 * (size_t)dim * sizeof(double));
    if (!g->a)
        return TBRF_ERR_NO_MEMORY;
    g->u = g->a + dim;
    for (int i = 0; i < dim; i++) {
        g->a[i] = a ? a[i] : 1.0;
        g->u[i] = u ? u[i] : 0.5;
    }
    g->kind = kind;
    g->dim = dim;
    return TBRF_OK;
}

static double genz_exact(const genz *g)
{
    const int d = g->dim;
    const double *a = g->a, *u = g->u;
    double r = 1.0;
    switch (g->kind) {
    case TBRF_MC_OSCILLATORY: {
        double s = 2 * M_PI * u[0];
        for (int i = 0; i < d; i++) {
            s += a[i] / 2;
            r *= 2 * sin(a[i] / 2) / a[i];
        }
        return cos(s) * r;
    }
    case TBRF_MC_PRODUCT_PEAK:
        for (int i = 0; i < d; i++)
            r *= a[i] * (atan(a[i] * (1 - u[i])) + atan(a[i] * u[i]));
        return r;
    case TBRF_MC_CORNER_PEAK: {
        /* (d! prod a)^-1 sum_v (-1)^|v| / (1 + a.v), v in {0,1}^d */
        double sum = 0, fact = 1;
        for (uint32_t v = 0; v < (1u << d); v++) {
            double av = 1;
            int bits = 0;
            for (int i = 0; i < d; i++)
                if (v >> i & 1u) {
                    av += a[i];
                    bits++;
                }
            sum += (bits & 1 ? -1.0 : 1.0) / av;
        }
        for (int i = 0; i < d; i++)
            fact *= (i + 1) * a[i];
        return sum / fact;
    }
    case TBRF_MC_GAUSSIAN:
        for (int i = 0; i < d; i++)
            r *= sqrt(M_PI) / (2 * a[i]) * (erf(a[i] * (1 - u[i])) + erf(a[i] * u[i]));
        return r;
    case TBRF_MC_CONTINUOUS:
        for (int i = 0; i < d; i++)
            r *= (2 - exp(-a[i] * u[i]) - exp(-a[i] * (1 - u[i]))) / a[i];
        return r;
    case TBRF_MC_DISCONTINUOUS:
        for (int i = 0; i < d; i++)
            r *= (i < 2 ? expm1(a[i] * u[i]) : expm1(a[i])) / a[i];
        return r;
    default: /* NAG D01GBF example */
        return 2 * log(4.0 / 3.0);
    }
}

/* f at n points of x (n*dim numbers) by the shared body (kernels/mc_body.h),
 * the same arithmetic as the GPU kernels. The loop is instantiated per
 * integrand so the body's switch folds away. */
#define GENZ_LOOP(KIND)                                                       \
    for (int64_t p = 0; p < n; p++) {                                         \
        const double *xp = x + p * d;                                         \
        tbrf_mc_acc acc;                                                      \
        tbrf_mc_acc_init(&acc);                                               \
        for (int i = 0; i < d; i++)                                           \
            tbrf_mc_acc_add(&acc, KIND, i, xp[i], a[i], u[i]);                \
        f[p] = tbrf_mc_acc_value(&acc, KIND, d, u[0], u1);                    \
    }

static void genz_eval(const genz *g, int64_t n, const double *x, double *f)
{
    const int d = g->dim;
    const double *a = g->a, *u = g->u;
    const double u1 = d > 1 ? u[1] : 0.0;
    switch (g->kind) {
    case TBRF_MC_OSCILLATORY: GENZ_LOOP(TBRF_MCK_OSCILLATORY) break;
    case TBRF_MC_PRODUCT_PEAK: GENZ_LOOP(TBRF_MCK_PRODUCT_PEAK) break;
    case TBRF_MC_CORNER_PEAK: GENZ_LOOP(TBRF_MCK_CORNER_PEAK) break;
    case TBRF_MC_GAUSSIAN: GENZ_LOOP(TBRF_MCK_GAUSSIAN) break;
    case TBRF_MC_CONTINUOUS: GENZ_LOOP(TBRF_MCK_CONTINUOUS) break;
    case TBRF_MC_DISCONTINUOUS: GENZ_LOOP(TBRF_MCK_DISCONTINUOUS) break;
    default: GENZ_LOOP(TBRF_MCK_NAG) break;
    }
}

int tbrf_mc_exact(int integrand, int dim, const double *a, const double *u, double *exact)
{
    if (!exact)
        return TBRF_ERR_NULL;
    genz g;
    int st = genz_make(integrand, dim, a, u, &g);
    if (st)
        return st;
    *exact = genz_exact(&g);
    free(g.a);
    return TBRF_OK;
}

/* ------------------------------------------------------------ driver */

typedef struct job {
    const genz *g;   /* built-in, or NULL */
    tbrf_mc_fn fn;   /* user integrand */
    void *user;
    const double *lo, *hi;
    int dim;
    uint64_t seed;
} job;

/* Statistics of one chunk: shift K (its first value), sums of (f-K) and
 * (f-K)^2. */
typedef struct chunkstat {
    double K, s1, s2;
    int64_t m;
} chunkstat;

/* Evaluates m points in x (m*dim numbers in [0,1)) into f and adds them to
 * the chunk statistics; p is the index of the first point, cs[0] the
 * statistics of the chunk that starts at point `base`. */
static int consume(const job *jb, int64_t p, int64_t m, double *x, double *f, chunkstat *cs,
                   int64_t base)
{
    const int d = jb->dim;
    if (jb->g) {
        genz_eval(jb->g, m, x, f);
    } else {
        if (jb->lo)
            for (int64_t q = 0; q < m; q++)
                for (int i = 0; i < d; i++)
                    x[q * d + i] = jb->lo[i] + (jb->hi[i] - jb->lo[i]) * x[q * d + i];
        if (jb->fn(jb->user, m, d, x, f))
            return TBRF_ERR_CALLBACK;
    }
    for (int64_t q = 0; q < m; q++, p++) {
        chunkstat *c = &cs[(p - base) / MC_CHUNK];
        if (p % MC_CHUNK == 0)
            c->K = f[q];
        double t = f[q] - c->K;
        c->s1 += t;
        c->s2 += t * t;
        c->m++;
    }
    return TBRF_OK;
}

/* Points [p0, p1) by one LCG step per number (p0 starts a chunk). */
static int run_sequential(const job *jb, int64_t p0, int64_t p1, chunkstat *cs)
{
    const int d = jb->dim;
    double *x = malloc((size_t)MC_SEQ_BATCH * (size_t)(d + 1) * sizeof(double));
    if (!x)
        return TBRF_ERR_NO_MEMORY;
    double *f = x + (size_t)MC_SEQ_BATCH * d;
    uint64_t s = tbrf_lcg64_jump(jb->seed, (uint64_t)p0 * (uint64_t)d);
    int st = TBRF_OK;
    for (int64_t p = p0; p < p1 && !st; p += MC_SEQ_BATCH) {
        int64_t m = p1 - p < MC_SEQ_BATCH ? p1 - p : MC_SEQ_BATCH;
        for (int64_t k = 0; k < m * d; k++) {
            s = tbrf_lcg64_step(s);
            x[k] = tbrf_lcg64_u01(s);
        }
        st = consume(jb, p, m, x, f, cs, p0);
    }
    free(x);
    return st;
}

/* The vectorized path: points in blocks of `blk` points by the block form
 * x_j = t_j + x_last y_j (independent multiply-adds: SIMD lanes), each
 * OpenMP thread on a contiguous range of whole chunks, started by
 * jump-ahead. */
static int run_vectorized(const job *jb, int64_t base, int64_t n, int64_t blk, chunkstat *cs)
{
    const int d = jb->dim;
    const int64_t L = blk * d; /* numbers per block */
    uint64_t *y = malloc(2 * (size_t)L * sizeof(uint64_t));
    if (!y)
        return TBRF_ERR_NO_MEMORY;
    uint64_t *t = y + L;
    tbrf_rng_lcg64_block(L, y, t);
    const int64_t nchunks = (n - base + MC_CHUNK - 1) / MC_CHUNK;
    int status = TBRF_OK;
    volatile int abort_flag = 0;
#pragma omp parallel
    {
        int nt = omp_get_num_threads(), it = omp_get_thread_num();
        int64_t c0 = nchunks * it / nt, c1 = nchunks * (it + 1) / nt;
        int64_t p0 = base + c0 * MC_CHUNK, p1 = base + c1 * MC_CHUNK < n ? base + c1 * MC_CHUNK : n;
        int st = TBRF_OK;
        double *x = NULL;
        if (p0 < p1) {
            x = malloc((size_t)(L + blk) * sizeof(double));
            if (!x)
                st = TBRF_ERR_NO_MEMORY;
        }
        if (x) {
            double *f = x + L;
            /* x_last: the state before the first number of point p0 */
            uint64_t xl = tbrf_lcg64_jump(jb->seed, (uint64_t)p0 * (uint64_t)d);
            for (int64_t p = p0; p < p1 && !st && !abort_flag; p += blk) {
                int64_t m = p1 - p < blk ? p1 - p : blk;
                int64_t w = m * d;
                xl = tbrf_lcg64_block_fill(w, xl, y, t, x);
                st = consume(jb, p, m, x, f, cs, base);
            }
        }
        free(x);
        if (st) {
            abort_flag = 1;
#pragma omp critical /* unnamed: a named one would be an exported symbol */
            if (!status)
                status = st;
        }
    }
    free(y);
    return status;
}

static double now(void)
{
    return omp_get_wtime();
}

int tbrf_mc_measure_beta(double *beta)
{
    if (!beta)
        return TBRF_ERR_NULL;
    enum { N = 1 << 20, NS = 7 };
    const int64_t sizes[NS] = {1, 2, 4, 8, 16, 32, 64};
    double *x = malloc(N * sizeof(double));
    uint64_t *y = malloc(2 * 64 * sizeof(uint64_t));
    if (!x || !y) {
        free(x);
        free(y);
        *beta = 64;
        return TBRF_OK;
    }
    uint64_t *t = y + 64;
    tbrf_rng_lcg64_block(64, y, t);
    double T[NS], sink = 0;
    for (int k = 0; k < NS; k++) {
        const int64_t s = sizes[k];
        T[k] = 1e30;
        for (int rep = 0; rep < 7; rep++) {
            uint64_t xl = 12345u + (uint64_t)rep;
            double t0 = now();
            for (int64_t b = 0; b < N; b += s)
                xl = tbrf_lcg64_block_fill(s, xl, y, t, x + b);
            double dt = now() - t0;
            sink += x[N - 1];
            if (dt < T[k])
                T[k] = dt;
        }
    }
    /* least squares T = A + B/s; beta = B/A (A = tau N, B = tau beta N) */
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    for (int k = 0; k < NS; k++) {
        double v = 1.0 / (double)sizes[k];
        sx += v;
        sy += T[k];
        sxx += v * v;
        sxy += v * T[k];
    }
    double B = (NS * sxy - sx * sy) / (NS * sxx - sx * sx);
    double A = (sy - B * sx) / NS;
    free(x);
    free(y);
    double b = (A > 0 && B > 0) ? B / A : 1.0;
    if (!(b >= 0.01) || sink < 0) /* sink is never < 0: keeps the loop alive */
        b = 0.01;
    *beta = b;
    return TBRF_OK;
}

int tbrf_mc_block_size(int64_t n, int dim, double beta, int64_t *s)
{
    if (!s)
        return TBRF_ERR_NULL;
    if (n < 1 || dim < 1)
        return TBRF_ERR_SIZE;
    if (!(beta > 0) || !isfinite(beta))
        tbrf_mc_measure_beta(&beta);
    double v = sqrt(beta * (double)n / dim);
    double vmax = (double)(MC_MAX_BLOCK_WORDS / dim);
    if (v > vmax)
        v = vmax;
    if (v < 1)
        v = 1;
    *s = (int64_t)(v + 0.5);
    return TBRF_OK;
}

static int pick_block(int64_t n, int dim, int64_t block, int64_t *s)
{
    if (block > 0) {
        *s = block > MC_MAX_BLOCK_WORDS / dim ? MC_MAX_BLOCK_WORDS / dim : block;
        if (*s < 1)
            *s = 1;
        return TBRF_OK;
    }
    double beta = 64;
    const char *env = getenv("TBRF_LCG_BETA");
    char *end = NULL;
    double eb = env ? strtod(env, &end) : 0;
    if (env && end != env && eb > 0 && isfinite(eb))
        beta = eb;
    else if ((double)n * dim >= (double)(1 << 24))
        tbrf_mc_measure_beta(&beta);
    int st = tbrf_mc_block_size(n, dim, beta, s);
    /* The model counts no memory traffic: a block's numbers with their y
     * and t tables (24 bytes per number) must stay in the L1 cache, which
     * the block-size sweep of bench_mc shows matters more than the block
     * overhead, so the automatic block is at most MC_CACHE_WORDS numbers. */
    int64_t cap = MC_CACHE_WORDS / dim > 0 ? MC_CACHE_WORDS / dim : 1;
    if (!st && *s > cap)
        *s = cap;
    return st;
}

/* Chan et al.: the running (count, mean, M2) of the chunks combined so
 * far, in chunk order. */
typedef struct running {
    double mean, M2;
    int64_t cnt;
} running;

/* Adds the chunks' (count, mean, M2) to r in chunk order. */
static void combine(running *r, const chunkstat *cs, int64_t nchunks)
{
    for (int64_t c = 0; c < nchunks; c++) {
        double m = (double)cs[c].m;
        double cm = cs[c].K + cs[c].s1 / m;
        double cM2 = cs[c].s2 - cs[c].s1 * cs[c].s1 / m;
        if (cM2 < 0)
            cM2 = 0;
        double tot = (double)r->cnt + m, delta = cm - r->mean;
        r->mean += delta * m / tot;
        r->M2 += cM2 + delta * delta * (double)r->cnt * m / tot;
        r->cnt += cs[c].m;
    }
}

/* The estimate vol * mean and its standard error. */
static void estimate(const running *r, int64_t n, double vol, double out[2])
{
    out[0] = vol * r->mean;
    out[1] = vol * sqrt(r->M2 / ((double)n - 1) / (double)n);
}

/* Chunks whose statistics are kept at once: the points run in groups of
 * MC_GROUP_CHUNKS chunks (2^25 points, 128 KiB of statistics), combined
 * in order as each group ends, so memory does not grow with n (2^50
 * points need no 4 TiB array) and the result is the same bits. */
#define MC_GROUP_CHUNKS ((int64_t)4096)

static int integrate(const job *jb, int64_t n, int algorithm, int64_t block, double out[2])
{
    if (!out)
        return TBRF_ERR_NULL;
    if (n < 2 || block < 0)
        return TBRF_ERR_SIZE;
    if (algorithm != TBRF_MC_SEQUENTIAL && algorithm != TBRF_MC_VECTORIZED)
        return TBRF_ERR_INVALID;
    if ((uint64_t)n > UINT64_MAX / (uint64_t)jb->dim / 2)
        return TBRF_ERR_SIZE;
    const int64_t nchunks = (n + MC_CHUNK - 1) / MC_CHUNK;
    const int64_t gchunks = nchunks < MC_GROUP_CHUNKS ? nchunks : MC_GROUP_CHUNKS;
    chunkstat *cs = malloc((size_t)gchunks * sizeof *cs);
    if (!cs)
        return TBRF_ERR_NO_MEMORY;
    int64_t s = 0;
    int st = algorithm == TBRF_MC_VECTORIZED ? pick_block(n, jb->dim, block, &s) : TBRF_OK;
    running r = {0, 0, 0};
    for (int64_t c0 = 0; c0 < nchunks && !st; c0 += gchunks) {
        int64_t c1 = c0 + gchunks < nchunks ? c0 + gchunks : nchunks;
        int64_t p0 = c0 * MC_CHUNK, p1 = c1 * MC_CHUNK < n ? c1 * MC_CHUNK : n;
        memset(cs, 0, (size_t)gchunks * sizeof *cs);
        st = algorithm == TBRF_MC_SEQUENTIAL ? run_sequential(jb, p0, p1, cs)
                                             : run_vectorized(jb, p0, p1, s, cs);
        if (!st)
            combine(&r, cs, c1 - c0);
    }
    if (!st) {
        double vol = 1;
        if (jb->lo)
            for (int i = 0; i < jb->dim; i++)
                vol *= jb->hi[i] - jb->lo[i];
        estimate(&r, n, vol, out);
    }
    free(cs);
    return st;
}

int tbrf_mc_integrate(int integrand, int dim, const double *a, const double *u, int64_t n,
                      uint64_t seed, int algorithm, int64_t block, double out[2])
{
    if (!out)
        return TBRF_ERR_NULL;
    genz g;
    int st = genz_make(integrand, dim, a, u, &g);
    if (st)
        return st;
    job jb = {&g, NULL, NULL, NULL, NULL, dim, seed};
    st = integrate(&jb, n, algorithm, block, out);
    free(g.a);
    return st;
}

int tbrf_mc_integrate_fn(tbrf_mc_fn fn, void *user, int dim, const double *lo, const double *hi,
                         int64_t n, uint64_t seed, int algorithm, int64_t block, double out[2])
{
    if (!fn || !out || (!lo) != (!hi))
        return TBRF_ERR_NULL;
    if (dim < 1 || dim > 1024)
        return TBRF_ERR_UNSUPPORTED;
    if (lo)
        for (int i = 0; i < dim; i++)
            if (!(isfinite(lo[i]) && isfinite(hi[i]) && lo[i] < hi[i]))
                return TBRF_ERR_INVALID;
    job jb = {NULL, fn, user, lo, hi, dim, seed};
    return integrate(&jb, n, algorithm, block, out);
}

/* GPU backends compute each chunk's shifted sums (K, s1, s2) through their
 * mc_chunks slot (backends/backend.h); the chunks are combined here in
 * order, exactly as on the CPU. */
int tbrf_mc_integrate_device(int backend, int device, int integrand, int dim, const double *a,
                             const double *u, int64_t n, uint64_t seed, double out[2])
{
    if (!out)
        return TBRF_ERR_NULL;
    if (backend != TBRF_BACKEND_OPENCL && backend != TBRF_BACKEND_CUDA)
        return TBRF_ERR_INVALID;
    if (device < -1)
        return TBRF_ERR_INVALID;
    int st = genz_check(integrand, dim, a, u);
    if (st)
        return st;
    if (n < 2)
        return TBRF_ERR_SIZE;
    if ((uint64_t)n > UINT64_MAX / (uint64_t)dim / 2)
        return TBRF_ERR_SIZE;
    const int64_t nchunks = (n + MC_CHUNK - 1) / MC_CHUNK;
    /* The backends return every chunk's sums at once: 56 bytes a chunk
     * here, so n is bounded (2^40 points: 7 GiB) rather than streamed. */
    if (n > MC_DEVICE_MAX_POINTS)
        return TBRF_ERR_SIZE;
    double *buf = malloc(3 * (size_t)nchunks * sizeof(double));
    if (!buf)
        return TBRF_ERR_NO_MEMORY;
    const backend_ops *b = tbrfi_backend_lookup(backend, &st); /* TBRF_ERR_NOT_BUILT, ... */
    if (b)
        st = b->mc_chunks(device, integrand, dim, a, u, n, seed, buf, buf + nchunks,
                          buf + 2 * nchunks);
    if (st == TBRF_OK) {
        chunkstat *cs = calloc((size_t)nchunks, sizeof *cs);
        if (!cs) {
            free(buf);
            return TBRF_ERR_NO_MEMORY;
        }
        for (int64_t c = 0; c < nchunks; c++) {
            cs[c].K = buf[c];
            cs[c].s1 = buf[nchunks + c];
            cs[c].s2 = buf[2 * nchunks + c];
            cs[c].m = c + 1 < nchunks ? MC_CHUNK : n - c * MC_CHUNK;
        }
        running r = {0, 0, 0};
        combine(&r, cs, nchunks);
        estimate(&r, n, 1.0, out);
        free(cs);
    }
    free(buf);
    return st;
}
