/* test_determinism.c — the determinism contract (doc/design.md, "Determinism"): the value at
 * a point is a pure function of (model, math options, seed, realization,
 * position):
 *  - bitwise identical for threads = 1, 2, 3, for repeated and out-of-order
 *    executes, and for two plans made alike;
 *  - tbrf_execute_stream for any chunk size (and a pull that returns short
 *    chunks) and tbrf_execute_grid_stream for any chunk size equal
 *    tbrf_execute bitwise, with contiguous `first` indices;
 *  - point evaluation is independent of the order and number of the other
 *    points (permutation, subset) and follows moved points;
 *  - grid evaluation equals point evaluation at the cell positions to
 *    rounding (1e-12 sigma);
 *  - float output equals the double output rounded to float;
 *  - different seeds or realizations (including ones differing only in
 *    the high 32 bits) give uncorrelated fields: the correlation of two
 *    fields on points 4 lengths apart (independent) stays within 4.5/sqrt(N).
 */
#include "support/testutil.h"

static tbrf_model *model;
static const double LO[3] = {0, 0, 0}, HI[3] = {20, 16, 12};
static const double ORIGIN[3] = {0, 0, 0}, SPACING[3] = {1, 1, 1};
static const int64_t NG[3] = {21, 17, 13};
#define NPTS 3000

static tbrf_plan *make(int threads, int precision, int64_t chunk, uint64_t seed)
{
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.threads = threads;
    o.precision = precision;
    o.chunk = chunk;
    return tu_plan(model, 3, LO, HI, 0.5, seed, &o);
}

static double *grid_values(int threads, uint64_t seed, uint64_t r)
{
    tbrf_plan *p = make(threads, TBRF_DOUBLE, 0, seed);
    if (!p) return NULL;
    double *v = tu_malloc((size_t)(NG[0] * NG[1] * NG[2]) * sizeof *v);
    CHECK(tbrf_set_grid(p, ORIGIN, SPACING, NG) == TBRF_OK, "set_grid: %s", tbrf_plan_message(p));
    tu_execute(p, r, v);
    tbrf_destroy(p);
    return v;
}

static double *point_values(int threads, uint64_t seed, uint64_t r, int64_t n, const double *xyz)
{
    tbrf_plan *p = make(threads, TBRF_DOUBLE, 0, seed);
    if (!p) return NULL;
    double *v = tu_malloc((size_t)n * sizeof *v);
    CHECK(tbrf_set_points(p, n, xyz) == TBRF_OK, "set_points: %s", tbrf_plan_message(p));
    tu_execute(p, r, v);
    tbrf_destroy(p);
    return v;
}

static int same(const void *a, const void *b, size_t bytes) { return a && b && memcmp(a, b, bytes) == 0; }

/* ---- streaming callbacks */
typedef struct {
    const double *xyz;
    int64_t n;
    int64_t short_by; /* >0: return at most this many per pull */
    void *out;        /* double or float per precision */
    size_t vsize;
    int64_t expect_first;
    int order_ok;
    int64_t pushed;
} stream_ctx;

static int pull_points(void *user, int64_t first, int64_t max, double *xyz, int64_t *count)
{
    stream_ctx *c = user;
    int64_t k = c->n - first;
    if (k > max) k = max;
    if (c->short_by > 0 && k > c->short_by) k = c->short_by;
    if (k < 0) k = 0;
    memcpy(xyz, c->xyz + 3 * first, (size_t)(3 * k) * sizeof(double));
    *count = k;
    return 0;
}

static int push_values(void *user, int64_t first, int64_t count, const void *values)
{
    stream_ctx *c = user;
    if (first != c->expect_first) c->order_ok = 0;
    c->expect_first = first + count;
    c->pushed += count;
    memcpy((char *)c->out + (size_t)first * c->vsize, values, (size_t)count * c->vsize);
    return 0;
}

static void check_threads(const double *xyz)
{
    int64_t ng = NG[0] * NG[1] * NG[2];
    double *g1 = grid_values(1, 7, 3), *g2 = grid_values(2, 7, 3), *g3 = grid_values(3, 7, 3);
    CHECK(same(g1, g2, (size_t)ng * 8), "grid threads=1 vs 2 differ");
    CHECK(same(g1, g3, (size_t)ng * 8), "grid threads=1 vs 3 differ");
    double *p1 = point_values(1, 7, 3, NPTS, xyz), *p2 = point_values(2, 7, 3, NPTS, xyz);
    CHECK(same(p1, p2, NPTS * 8), "points threads=1 vs 2 differ");
    double *p0 = point_values(0, 7, 3, NPTS, xyz);
    CHECK(same(p1, p0, NPTS * 8), "points threads=1 vs default differ");
    free(g1);
    free(g2);
    free(g3);
    free(p1);
    free(p2);
    free(p0);
}

static void check_repeat_and_order(const double *xyz)
{
    tbrf_plan *p = make(2, TBRF_DOUBLE, 0, 7);
    if (!p) return;
    CHECK(tbrf_set_points(p, NPTS, xyz) == TBRF_OK, "set_points");
    double *a = tu_malloc(NPTS * 8), *b = tu_malloc(NPTS * 8), *c = tu_malloc(NPTS * 8);
    tu_execute(p, 1, a);
    tu_execute(p, 1, b);
    CHECK(same(a, b, NPTS * 8), "repeated execute of realization 1 differs");
    tu_execute(p, 2, c);
    CHECK(!same(a, c, NPTS * 8), "realizations 1 and 2 are identical");
    tu_execute(p, 1, b);
    CHECK(same(a, b, NPTS * 8), "realization 1 after realization 2 differs from before");
    /* a second plan made alike */
    double *d = point_values(1, 7, 1, NPTS, xyz);
    CHECK(same(a, d, NPTS * 8), "two plans made alike differ");
    /* grid set after points on the same plan, then points again */
    double *g = tu_malloc((size_t)(NG[0] * NG[1] * NG[2]) * 8);
    CHECK(tbrf_set_grid(p, ORIGIN, SPACING, NG) == TBRF_OK, "set_grid");
    tu_execute(p, 1, g);
    CHECK(tbrf_set_points(p, NPTS, xyz) == TBRF_OK, "set_points");
    tu_execute(p, 1, b);
    CHECK(same(a, b, NPTS * 8), "points after a grid on the same plan differ");
    free(a);
    free(b);
    free(c);
    free(d);
    free(g);
    tbrf_destroy(p);
}

static void check_point_independence(const double *xyz)
{
    double *all = point_values(2, 9, 0, NPTS, xyz);
    /* subset: the first 100 and a single point */
    double *sub = point_values(2, 9, 0, 100, xyz);
    CHECK(same(all, sub, 100 * 8), "the first 100 points alone differ from the full set");
    double *one = point_values(1, 9, 0, 1, xyz + 3 * 1234);
    CHECK(one && all && one[0] == all[1234], "a single point differs from the full set");
    /* permutation: reverse order */
    double *rev = tu_malloc(NPTS * 3 * sizeof *rev);
    for (int i = 0; i < NPTS; i++) memcpy(rev + 3 * i, xyz + 3 * (NPTS - 1 - i), 3 * sizeof(double));
    double *vr = point_values(2, 9, 0, NPTS, rev);
    int ok = all && vr;
    for (int i = 0; ok && i < NPTS; i++) ok = vr[i] == all[NPTS - 1 - i];
    CHECK(ok, "permuted points give different values");
    /* moved points: set_points on an array, move it in place, set again */
    tbrf_plan *p = make(2, TBRF_DOUBLE, 0, 9);
    if (p) {
        double *moving = tu_malloc(NPTS * 3 * sizeof *moving);
        memcpy(moving, xyz, NPTS * 3 * sizeof *moving);
        double *v = tu_malloc(NPTS * 8);
        CHECK(tbrf_set_points(p, NPTS, moving) == TBRF_OK, "set_points");
        tu_execute(p, 0, v);
        CHECK(same(v, all, NPTS * 8), "plan values differ");
        memcpy(moving, rev, NPTS * 3 * sizeof *moving);
        CHECK(tbrf_set_points(p, NPTS, moving) == TBRF_OK, "set_points again");
        tu_execute(p, 0, v);
        CHECK(same(v, vr, NPTS * 8), "moved points differ from a fresh evaluation");
        /* moved without calling set_points again: execute must see it */
        memcpy(moving, xyz, NPTS * 3 * sizeof *moving);
        tu_execute(p, 0, v);
        CHECK(same(v, all, NPTS * 8), "points moved in place (no set_points) differ");
        free(moving);
        free(v);
        tbrf_destroy(p);
    }
    free(all);
    free(sub);
    free(one);
    free(rev);
    free(vr);
}

static void check_streams(const double *xyz)
{
    double *ref = point_values(2, 11, 5, NPTS, xyz);
    const int64_t chunks[] = {0, 1, 7, 256, 1000, NPTS, 100000};
    for (size_t k = 0; k < sizeof chunks / sizeof chunks[0]; k++)
        for (int shortp = 0; shortp < 2; shortp++) {
            /* one thread for the small chunks: thousands of tiny parallel
             * regions crawl when another process holds a core (OpenMP's
             * active waiting); thread independence is checked above */
            tbrf_plan *p = make(chunks[k] < 1000 ? 1 : 2, TBRF_DOUBLE, chunks[k], 11);
            if (!p) continue;
            double *out = tu_malloc(NPTS * 8);
            memset(out, 0xff, NPTS * 8);
            stream_ctx c = {xyz, NPTS, shortp ? 5 : 0, out, 8, 0, 1, 0};
            int st = tbrf_execute_stream(p, 5, pull_points, push_values, &c);
            CHECK(st == TBRF_OK, "execute_stream chunk %lld: %s: %s", (long long)chunks[k],
                  tbrf_strerror(st), tbrf_plan_message(p));
            CHECK(c.order_ok && c.pushed == NPTS, "execute_stream chunk %lld: pushes out of order "
                  "or %lld of %d values", (long long)chunks[k], (long long)c.pushed, NPTS);
            CHECK(same(out, ref, NPTS * 8), "execute_stream chunk %lld%s differs from execute",
                  (long long)chunks[k], shortp ? " (short pulls)" : "");
            free(out);
            tbrf_destroy(p);
        }
    free(ref);

    int64_t ng = NG[0] * NG[1] * NG[2];
    double *gref = grid_values(2, 11, 5);
    const int64_t gchunks[] = {0, 1, 21, 50, 357, 1000, ng, 10 * ng};
    for (size_t k = 0; k < sizeof gchunks / sizeof gchunks[0]; k++) {
        tbrf_plan *p = make(gchunks[k] < 1000 ? 1 : 2, TBRF_DOUBLE, gchunks[k], 11);
        if (!p) continue;
        CHECK(tbrf_set_grid(p, ORIGIN, SPACING, NG) == TBRF_OK, "set_grid");
        double *out = tu_malloc((size_t)ng * 8);
        memset(out, 0xff, (size_t)ng * 8);
        stream_ctx c = {NULL, 0, 0, out, 8, 0, 1, 0};
        int st = tbrf_execute_grid_stream(p, 5, push_values, &c);
        CHECK(st == TBRF_OK, "execute_grid_stream chunk %lld: %s", (long long)gchunks[k],
              tbrf_plan_message(p));
        CHECK(c.order_ok && c.pushed == ng, "grid stream chunk %lld: out of order or %lld of %lld",
              (long long)gchunks[k], (long long)c.pushed, (long long)ng);
        CHECK(same(out, gref, (size_t)ng * 8), "execute_grid_stream chunk %lld differs from execute",
              (long long)gchunks[k]);
        free(out);
        tbrf_destroy(p);
    }
    free(gref);
}

static void check_grid_vs_points(void)
{
    int64_t ng = NG[0] * NG[1] * NG[2];
    double *cells = tu_malloc((size_t)ng * 3 * sizeof *cells);
    for (int64_t k = 0; k < NG[2]; k++)
        for (int64_t j = 0; j < NG[1]; j++)
            for (int64_t i = 0; i < NG[0]; i++) {
                double *x = cells + 3 * ((k * NG[1] + j) * NG[0] + i);
                x[0] = ORIGIN[0] + SPACING[0] * (double)i;
                x[1] = ORIGIN[1] + SPACING[1] * (double)j;
                x[2] = ORIGIN[2] + SPACING[2] * (double)k;
            }
    double *g = grid_values(2, 13, 0), *pv = point_values(2, 13, 0, ng, cells);
    double worst = 0;
    for (int64_t i = 0; g && pv && i < ng; i++) worst = fmax(worst, fabs(g[i] - pv[i]));
    double sigma = sqrt(tbrf_model_variance(model, 3));
    printf("grid vs points at the cell positions: max |diff| = %.3g sigma\n", worst / sigma);
    CHECK(worst <= 1e-12 * sigma, "grid and point evaluation differ by %.3g sigma", worst / sigma);
    free(cells);
    free(g);
    free(pv);
}

static void check_float(const double *xyz)
{
    double *d = point_values(2, 17, 2, NPTS, xyz);
    tbrf_plan *p = make(2, TBRF_FLOAT, 0, 17);
    if (!p) return;
    float *f = tu_malloc(NPTS * sizeof *f);
    CHECK(tbrf_set_points(p, NPTS, xyz) == TBRF_OK, "set_points");
    tu_execute(p, 2, f);
    int bad = 0;
    for (int i = 0; d && i < NPTS; i++) bad += f[i] != (float)d[i];
    CHECK(bad == 0, "float points: %d of %d values differ from (float)double", bad, NPTS);
    /* grid and grid stream in float */
    int64_t ng = NG[0] * NG[1] * NG[2];
    double *gd = grid_values(2, 17, 2);
    float *gf = tu_malloc((size_t)ng * sizeof *gf), *gs = tu_malloc((size_t)ng * sizeof *gs);
    CHECK(tbrf_set_grid(p, ORIGIN, SPACING, NG) == TBRF_OK, "set_grid");
    tu_execute(p, 2, gf);
    bad = 0;
    for (int64_t i = 0; gd && i < ng; i++) bad += gf[i] != (float)gd[i];
    CHECK(bad == 0, "float grid: %d of %lld values differ from (float)double", bad, (long long)ng);
    stream_ctx c = {NULL, 0, 0, gs, sizeof(float), 0, 1, 0};
    CHECK(tbrf_execute_grid_stream(p, 2, push_values, &c) == TBRF_OK, "float grid stream");
    CHECK(same(gs, gf, (size_t)ng * sizeof(float)), "float grid stream differs from execute");
    free(d);
    free(f);
    free(gd);
    free(gf);
    free(gs);
    tbrf_destroy(p);
}

/* correlation between fields of different seeds/realizations on points
 * 4 lengths apart (model correlation e^-16: independent samples) */
static void check_uncorrelated(int dim)
{
    const int64_t side = dim == 3 ? 24 : 96;
    const double sp = 8.0; /* model length 2 */
    int64_t n[3] = {side, side, dim == 3 ? side : 1};
    double lo[3] = {0, 0, 0}, hi[3] = {sp * (side - 1), sp * (side - 1), sp * (side - 1)};
    double hh[3] = {sp, sp, sp};
    int64_t N = n[0] * n[1] * n[2];
    struct { uint64_t seed, r; } cfg[] = {
        {1, 0}, {1, 1}, {2, 0}, {2, 1}, {1, (uint64_t)1 << 32}, {1 + ((uint64_t)1 << 32), 0},
        {1, 2}, {0, 0}, {1, ((uint64_t)1 << 32) + 1}, {~(uint64_t)0, ~(uint64_t)0}};
    enum { NC = sizeof cfg / sizeof cfg[0] };
    double *v[NC];
    for (int c = 0; c < NC; c++) {
        v[c] = tu_malloc((size_t)N * sizeof(double));
        /* resolution 2 (= the length): the lines need not resolve the
         * model for this check, and short lines keep it cheap */
        tbrf_plan *p = tu_plan(model, dim, lo, hi, 2.0, cfg[c].seed, NULL);
        if (!p) continue;
        CHECK(tbrf_set_grid(p, lo, hh, n) == TBRF_OK, "set_grid");
        tu_execute(p, cfg[c].r, v[c]);
        tbrf_destroy(p);
    }
    double crit = 4.5 / sqrt((double)N), worst = 0;
    int bonf_pairs = NC * (NC - 1) / 2;
    /* 4.5 sigma per pair; with 45 pairs the family-wise rate is < 3e-4 */
    for (int a = 0; a < NC; a++)
        for (int b = a + 1; b < NC; b++) {
            double rho = tu_correlation(v[a], v[b], N);
            worst = fmax(worst, fabs(rho));
            CHECK(fabs(rho) < crit, "%dD: seed %llu r %llu vs seed %llu r %llu: correlation %.4f "
                  "(critical %.4f)", dim, (unsigned long long)cfg[a].seed,
                  (unsigned long long)cfg[a].r, (unsigned long long)cfg[b].seed,
                  (unsigned long long)cfg[b].r, rho, crit);
        }
    printf("%dD: %d seed/realization configurations, %d pairs, N = %lld: largest |correlation| "
           "%.4f (critical 4.5/sqrt(N) = %.4f)\n", dim, NC, bonf_pairs, (long long)N, worst, crit);
    for (int c = 0; c < NC; c++) free(v[c]);
}

int main(void)
{
    REQUIRE(tbrf_model_gaussian(2.0, &model) == TBRF_OK, check_report("test_determinism"), "model");
    tu_rng rng = {2024};
    double *xyz = tu_random_points(&rng, NPTS, 3, LO, HI);
    /* the domain's corners exactly */
    memcpy(xyz, LO, sizeof LO);
    memcpy(xyz + 3, HI, sizeof HI);
    check_threads(xyz);
    check_repeat_and_order(xyz);
    check_point_independence(xyz);
    check_streams(xyz);
    check_grid_vs_points();
    check_float(xyz);
    check_uncorrelated(3);
    check_uncorrelated(2);
    free(xyz);
    tbrf_model_destroy(model);
    return check_report("test_determinism");
}
