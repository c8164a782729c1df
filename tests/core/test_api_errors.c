/* test_api_errors.c — bad input to the plan API returns a clean status and
 * a message, never a crash (the sanitizer build runs this too):
 * NULL pointers, NaN/inf/negative parameters, bad dimensions and options,
 * sizes that overflow int64, geometry outside the domain, execute before
 * geometry, backends not built, unsupported method combinations, circulant
 * embedding limits, callbacks that abort; tbrf_strerror for every code;
 * a failed plan stays failed (TBRF_ERR_BAD_PLAN) and can be destroyed. */
#include "support/testutil.h"

static tbrf_model *gauss; /* length 1 */
static const double LO[3] = {0, 0, 0}, HI[3] = {10, 8, 6};

static int in_set(int st, int a, int b) { return st == a || st == b; }

/* After a failure on a plan: the plan's status is the code and the
 * message is non-empty. */
static void expect_msg(const tbrf_plan *p, int st, const char *what)
{
    CHECK(tbrf_plan_status(p) == st, "%s: tbrf_plan_status %d, call returned %d", what,
          tbrf_plan_status(p), st);
    const char *m = tbrf_plan_message(p);
    CHECK(m && m[0], "%s: empty plan message after %s", what, tbrf_strerror(st));
}

/* make_plan expecting status `want` (or `want2`); a failed plan must hand
 * back an object with a message, refuse everything with BAD_PLAN and be
 * destroyable. */
static void expect_plan(int want, int want2, const tbrf_model *m, int dim, const double *lo,
                        const double *hi, double res, const tbrf_opts *o, const char *what)
{
    tbrf_plan *p = NULL;
    int st = tbrf_make_plan(m, dim, lo, hi, res, 1, o, &p);
    CHECK(in_set(st, want, want2), "%s: make_plan returned %d (%s), expected %d (%s) — %s", what,
          st, tbrf_strerror(st), want, tbrf_strerror(want), p ? tbrf_plan_message(p) : "");
    if (st == TBRF_ERR_NO_MEMORY) return;
    CHECK(p != NULL, "%s: no plan object handed back", what);
    if (!p) return;
    if (st != TBRF_OK) {
        const char *msg = tbrf_plan_message(p);
        CHECK(msg && msg[0], "%s: empty message for %s", what, tbrf_strerror(st));
        printf("  %-44s -> %-22s \"%s\"\n", what, tbrf_strerror(st), msg ? msg : "(null)");
        double origin[3] = {0, 0, 0}, h[3] = {1, 1, 1}, v[8];
        int64_t n[3] = {2, 2, dim == 2 ? 1 : 2};
        CHECK(tbrf_set_grid(p, origin, h, n) == TBRF_ERR_BAD_PLAN, "%s: set_grid on a failed plan",
              what);
        CHECK(tbrf_set_points(p, 1, origin) == TBRF_ERR_BAD_PLAN, "%s: set_points on a failed plan",
              what);
        CHECK(tbrf_execute(p, 0, v) == TBRF_ERR_BAD_PLAN, "%s: execute on a failed plan", what);
        tbrf_plan_info info;
        CHECK(tbrf_plan_get_info(p, &info) == TBRF_ERR_BAD_PLAN, "%s: get_info on a failed plan",
              what);
        CHECK(tbrf_plan_count(p) == 0, "%s: count on a failed plan", what);
        msg = tbrf_plan_message(p);
        CHECK(msg && msg[0], "%s: message lost after further calls", what);
    }
    tbrf_destroy(p);
}

static void check_strings(void)
{
    for (int c = 0; c <= 17; c++) {
        const char *s = tbrf_strerror(c);
        CHECK(s && s[0] && strcmp(s, "unknown status") != 0, "tbrf_strerror(%d) = \"%s\"", c,
              s ? s : "(null)");
        for (int d = 0; d < c; d++)
            CHECK(strcmp(s, tbrf_strerror(d)) != 0, "tbrf_strerror(%d) == tbrf_strerror(%d)", c, d);
    }
    const int unknown[] = {-1, 18, 1000, -2147483647 - 1};
    for (int i = 0; i < 4; i++) {
        const char *s = tbrf_strerror(unknown[i]);
        CHECK(s && strcmp(s, "unknown status") == 0, "tbrf_strerror(%d) = \"%s\"", unknown[i],
              s ? s : "(null)");
    }
    CHECK(strcmp(tbrf_version(), TBRF_VERSION_STRING) == 0, "version %s", tbrf_version());
    CHECK(tbrf_backend_name(TBRF_BACKEND_CPU) && !strcmp(tbrf_backend_name(TBRF_BACKEND_CPU), "cpu"),
          "backend name cpu");
    CHECK(tbrf_backend_name(4) == NULL && tbrf_backend_name(-1) == NULL, "unknown backend names");
    CHECK(tbrf_backend_available(TBRF_BACKEND_CPU) == TBRF_OK, "cpu available");
    CHECK(tbrf_backend_available(99) == TBRF_ERR_INVALID, "backend 99: %d",
          tbrf_backend_available(99));
    CHECK(tbrf_backend_available(-1) == TBRF_ERR_INVALID, "backend -1");
    CHECK(tbrf_plan_status(NULL) == TBRF_ERR_NULL, "plan_status(NULL)");
    CHECK(tbrf_plan_message(NULL) != NULL, "plan_message(NULL) is NULL");
    CHECK(tbrf_plan_count(NULL) == 0, "plan_count(NULL)");
    tbrf_plan_info info;
    CHECK(tbrf_plan_get_info(NULL, &info) == TBRF_ERR_NULL, "get_info(NULL)");
    tbrf_destroy(NULL);
    tbrf_default_opts(NULL);
}

static double nan_spectrum(double k, int dim, void *user)
{
    (void)dim;
    (void)user;
    return k > 1.0 ? NAN : 1.0;
}

static double negative_spectrum(double k, int dim, void *user)
{
    (void)k;
    (void)dim;
    (void)user;
    return -1.0;
}

static void check_make_plan(void)
{
    printf("make_plan failures:\n");
    tbrf_opts o;
    tbrf_plan *p = NULL;
    CHECK(tbrf_make_plan(gauss, 3, LO, HI, 0.5, 1, NULL, NULL) == TBRF_ERR_NULL, "plan out NULL");
    expect_plan(TBRF_ERR_NULL, -1, NULL, 3, LO, HI, 0.5, NULL, "model NULL");
    expect_plan(TBRF_ERR_NULL, -1, gauss, 3, NULL, HI, 0.5, NULL, "lo NULL");
    expect_plan(TBRF_ERR_NULL, -1, gauss, 3, LO, NULL, 0.5, NULL, "hi NULL");
    const int dims[] = {0, 1, 4, -3};
    for (int i = 0; i < 4; i++) {
        char w[64];
        snprintf(w, sizeof w, "dim %d", dims[i]);
        expect_plan(TBRF_ERR_INVALID, -1, gauss, dims[i], LO, HI, 0.5, NULL, w);
    }
    const double bad_res[] = {0.0, -1.0, NAN, INFINITY, -INFINITY};
    for (int i = 0; i < 5; i++) {
        char w[64];
        snprintf(w, sizeof w, "resolution %g", bad_res[i]);
        expect_plan(TBRF_ERR_INVALID, -1, gauss, 3, LO, HI, bad_res[i], NULL, w);
    }
    double lo_nan[3] = {0, NAN, 0}, hi_inf[3] = {10, 8, INFINITY}, hi_inv[3] = {10, -1, 6};
    expect_plan(TBRF_ERR_INVALID, -1, gauss, 3, lo_nan, HI, 0.5, NULL, "domain lo NaN");
    expect_plan(TBRF_ERR_INVALID, -1, gauss, 3, LO, hi_inf, 0.5, NULL, "domain hi inf");
    expect_plan(TBRF_ERR_INVALID, -1, gauss, 3, LO, hi_inv, 0.5, NULL, "domain hi < lo");
    /* 2D ignores lo[2]/hi[2] */
    expect_plan(TBRF_OK, -1, gauss, 2, LO, hi_inf, 0.5, NULL, "2D with hi[2] = inf (ignored)");

    /* models that failed to build, or whose variance diverges */
    tbrf_model *bad = NULL;
    CHECK(tbrf_model_gaussian(-1.0, &bad) == TBRF_ERR_INVALID, "gaussian(-1)");
    CHECK(bad && tbrf_model_message(bad)[0], "gaussian(-1) message");
    expect_plan(TBRF_ERR_INVALID, -1, bad, 3, LO, HI, 0.5, NULL, "failed model (length -1)");
    tbrf_model_destroy(bad);
    bad = NULL;
    CHECK(tbrf_model_gaussian(NAN, &bad) == TBRF_ERR_INVALID, "gaussian(NaN)");
    tbrf_model_destroy(bad);
    bad = NULL;
    CHECK(tbrf_model_exponential(INFINITY, &bad) == TBRF_ERR_INVALID, "exponential(inf)");
    tbrf_model_destroy(bad);
    bad = NULL;
    CHECK(tbrf_model_powerlaw(NAN, 0.1, 1, &bad) == TBRF_ERR_INVALID, "powerlaw index NaN");
    tbrf_model_destroy(bad);
    bad = NULL;
    CHECK(tbrf_model_powerlaw(-3, 1, 0.5, &bad) == TBRF_ERR_INVALID, "powerlaw kmax < kmin");
    tbrf_model_destroy(bad);
    CHECK(tbrf_model_gaussian(1.0, NULL) == TBRF_ERR_NULL, "gaussian out NULL");
    CHECK(tbrf_model_set_variance(gauss, -1) == TBRF_ERR_INVALID, "set_variance(-1)");
    CHECK(tbrf_model_set_variance(gauss, NAN) == TBRF_ERR_INVALID, "set_variance(NaN)");
    CHECK(tbrf_model_set_amplitude(gauss, 0) == TBRF_ERR_INVALID, "set_amplitude(0)");
    CHECK(tbrf_model_set_variance(NULL, 1) == TBRF_ERR_NULL, "set_variance(NULL)");
    CHECK(tbrf_model_variance(gauss, 3) == 1.0, "variance unchanged by rejected calls: %g",
          tbrf_model_variance(gauss, 3));

    tbrf_model *div = NULL;
    CHECK(tbrf_model_powerlaw(-3.0, 0.0, 2.0, &div) == TBRF_OK, "powerlaw kmin=0");
    expect_plan(TBRF_ERR_DIVERGENT, -1, div, 3, LO, HI, 0.5, NULL, "powerlaw k^-3, kmin=0, 3D");
    expect_plan(TBRF_ERR_DIVERGENT, -1, div, 2, LO, HI, 0.5, NULL, "powerlaw k^-3, kmin=0, 2D");
    tbrf_model_destroy(div);
    /* the message of a low-k divergence names the fix */
    CHECK(tbrf_model_powerlaw(-3.9, 0.0, 2.0, &div) == TBRF_OK, "powerlaw -3.9 kmin=0");
    tbrf_plan *dp = NULL;
    CHECK(tbrf_make_plan(div, 3, LO, HI, 0.5, 1, NULL, &dp) == TBRF_ERR_DIVERGENT &&
              strstr(tbrf_plan_message(dp), "kmin > 0 (--kmin") != NULL,
          "k^-3.9 without kmin: the message names --kmin: %s", dp ? tbrf_plan_message(dp) : "");
    tbrf_destroy(dp);
    tbrf_model_destroy(div);
    tbrf_model *cb = NULL;
    CHECK(tbrf_model_callback(nan_spectrum, NULL, 0.1, 3.0, &cb) == TBRF_OK, "callback model");
    expect_plan(TBRF_ERR_INVALID, TBRF_ERR_DIVERGENT, cb, 3, LO, HI, 0.5, NULL,
                "callback spectrum NaN above k=1");
    tbrf_model_destroy(cb);
    cb = NULL;
    CHECK(tbrf_model_callback(negative_spectrum, NULL, 0.1, 3.0, &cb) == TBRF_OK, "callback model");
    expect_plan(TBRF_ERR_INVALID, TBRF_ERR_DIVERGENT, cb, 3, LO, HI, 0.5, NULL,
                "callback spectrum negative");
    tbrf_model_destroy(cb);

    /* options */
    struct { const char *what; int field; int64_t value; int want, want2; } cases[] = {
        {"lines -5", 0, -5, TBRF_ERR_INVALID, -1},
        {"lines 2^31-1", 0, 2147483647, TBRF_ERR_INVALID, TBRF_ERR_SIZE},
        {"oversampling 0", 1, 0, TBRF_ERR_INVALID, -1},
        {"oversampling -2", 1, -2, TBRF_ERR_INVALID, -1},
        {"oversampling 2^31-1", 1, 2147483647, TBRF_ERR_INVALID, TBRF_ERR_SIZE},
        {"line_method 7", 2, 7, TBRF_ERR_INVALID, -1},
        {"max_padding -1", 3, -1, TBRF_ERR_INVALID, -1},
        {"max_padding 1000", 3, 1000, TBRF_ERR_INVALID, -1},
        {"precision 5", 4, 5, TBRF_ERR_INVALID, -1},
        {"threads -1", 5, -1, TBRF_ERR_INVALID, -1},
        {"backend 99", 6, 99, TBRF_ERR_INVALID, -1},
        {"backend -1", 6, -1, TBRF_ERR_INVALID, -1},
        {"chunk -1", 8, -1, TBRF_ERR_INVALID, -1},
        {"line_length_factor 0", 9, 0, TBRF_ERR_INVALID, -1},
        {"line_length_factor 1025", 9, 1025, TBRF_ERR_INVALID, -1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        tbrf_default_opts(&o);
        int32_t v = (int32_t)cases[i].value;
        switch (cases[i].field) {
        case 0: o.lines = v; break;
        case 1: o.oversampling = v; break;
        case 2: o.line_method = v; break;
        case 3: o.max_padding = v; break;
        case 4: o.precision = v; break;
        case 5: o.threads = v; break;
        case 6: o.backend = v; break;
        case 8: o.chunk = cases[i].value; break;
        case 9: o.line_length_factor = v; break;
        }
        expect_plan(cases[i].want, cases[i].want2, gauss, 3, LO, HI, 0.5, &o, cases[i].what);
    }

    /* backends not built (or without a device) */
    const int gpu[] = {TBRF_BACKEND_OPENCL, TBRF_BACKEND_CUDA};
    for (int i = 0; i < 2; i++) {
        int av = tbrf_backend_available(gpu[i]);
        CHECK(av == TBRF_OK || av == TBRF_ERR_NOT_BUILT || av == TBRF_ERR_NO_DEVICE,
              "backend_available(%s) = %d", tbrf_backend_name(gpu[i]), av);
        tbrf_default_opts(&o);
        o.backend = gpu[i];
        char w[64];
        snprintf(w, sizeof w, "backend %s (%s)", tbrf_backend_name(gpu[i]),
                 av == TBRF_OK ? "available" : tbrf_strerror(av));
        expect_plan(av, -1, gauss, 3, LO, HI, 0.5, &o, w);
    }
    tbrf_default_opts(&o);
    o.backend = TBRF_BACKEND_AUTO;
    p = NULL;
    CHECK(tbrf_make_plan(gauss, 3, LO, HI, 0.5, 1, &o, &p) == TBRF_OK, "backend auto");
    tbrf_plan_info info;
    if (p && tbrf_plan_get_info(p, &info) == TBRF_OK)
        CHECK(info.backend != TBRF_BACKEND_AUTO, "info.backend is AUTO");
    tbrf_destroy(p);

    /* circulant embedding: 3D covariance models only */
    tbrf_default_opts(&o);
    o.line_method = TBRF_LINES_CIRCULANT;
    expect_plan(TBRF_ERR_UNSUPPORTED, -1, gauss, 2, LO, HI, 0.5, &o, "circulant in 2D");
    tbrf_model *pl = NULL;
    CHECK(tbrf_model_powerlaw(-3.0, 0.5, 3.0, &pl) == TBRF_OK, "powerlaw");
    expect_plan(TBRF_ERR_UNSUPPORTED, -1, pl, 3, LO, HI, 0.5, &o, "circulant with a power law");
    expect_plan(TBRF_OK, -1, gauss, 3, LO, HI, 0.5, &o, "circulant Gaussian 3D");
    tbrf_model_destroy(pl);

    /* absurd sizes: lines longer than 2^30 samples, or L x M beyond 1 TiB */
    double huge[3] = {1e12, 1e12, 1e12};
    expect_plan(TBRF_ERR_SIZE, -1, gauss, 3, LO, huge, 0.5, NULL, "domain 1e12 at resolution 0.5");
    expect_plan(TBRF_ERR_SIZE, -1, gauss, 3, LO, HI, 1e-300, NULL, "resolution 1e-300");
    double big[3] = {1e5, 1e5, 1e5};
    tbrf_default_opts(&o);
    o.lines = 1 << 24;
    expect_plan(TBRF_ERR_SIZE, TBRF_ERR_INVALID, gauss, 3, LO, big, 1.0, &o,
                "2^24 lines of 1.4e6 samples");
}

/* Circulant embedding of models much longer than the domain, without
 * padding and with the default padding: a clean status either way (the
 * Gaussian and the smooth Matern need padding; report what happens). */
static void check_embedding(void)
{
    printf("circulant embedding limits (domain 10 x 8 x 6, resolution 1):\n");
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.line_method = TBRF_LINES_CIRCULANT;
    o.lines = 16;
    for (int mk = 0; mk < 3; mk++)
        for (int i = 0; i < 2; i++) {
            o.max_padding = i ? 3 : 0;
            tbrf_model *m = NULL;
            if (mk == 0) tbrf_model_gaussian(300.0, &m);
            else if (mk == 1) tbrf_model_exponential(300.0, &m);
            else tbrf_model_matern(300.0, 20.0, &m);
            tbrf_plan *p = NULL;
            int st = tbrf_make_plan(m, 3, LO, HI, 1.0, 1, &o, &p);
            tbrf_plan_info info = {0};
            if (st == TBRF_OK) tbrf_plan_get_info(p, &info);
            printf("  %-38s max_padding %d: %s%s%s (M = %lld, padding %d)\n",
                   tbrf_model_describe(m), o.max_padding, tbrf_strerror(st), st ? ": " : "",
                   st ? tbrf_plan_message(p) : "", (long long)info.line_samples, info.padding);
            CHECK(st == TBRF_OK || st == TBRF_ERR_EMBEDDING || st == TBRF_ERR_SIZE,
                  "circulant %s: status %d", tbrf_model_describe(m), st);
            /* the Gaussian 30x longer than the domain: the unpadded
             * embedding of its line covariance is negative (min/max about
             * -0.03), two doublings fix it */
            if (mk == 0)
                CHECK(st == (i ? TBRF_OK : TBRF_ERR_EMBEDDING),
                      "circulant Gaussian length 300, max_padding %d: %s", o.max_padding,
                      tbrf_strerror(st));
            if (st) CHECK(tbrf_plan_message(p)[0], "empty message");
            tbrf_destroy(p);
            tbrf_model_destroy(m);
        }
}

/* ---- callbacks */
typedef struct {
    const double *xyz;
    int64_t n;
    int pull_fail_at;  /* pull call number that returns non-zero (-1 never) */
    int push_fail_at;
    int bad_count;     /* 1: count > max, 2: count < 0, 3: a point outside */
    int pulls, pushes;
} cb_ctx;

static int pull(void *user, int64_t first, int64_t max, double *xyz, int64_t *count)
{
    cb_ctx *c = user;
    if (c->pulls++ == c->pull_fail_at) return 42;
    int64_t k = c->n - first < max ? c->n - first : max;
    memcpy(xyz, c->xyz + 3 * first, (size_t)(3 * k) * sizeof(double));
    *count = k;
    if (c->bad_count == 1) *count = max + 1;
    if (c->bad_count == 2) *count = -3;
    if (c->bad_count == 3 && k > 0) xyz[0] = 1e9;
    return 0;
}

static int push(void *user, int64_t first, int64_t count, const void *values)
{
    (void)first;
    (void)count;
    (void)values;
    cb_ctx *c = user;
    if (c->pushes++ == c->push_fail_at) return -7;
    return 0;
}

static void check_geometry_and_execute(void)
{
    tbrf_plan *p = tu_plan(gauss, 3, LO, HI, 0.5, 1, NULL);
    if (!p) return;
    double v[64];
    int st;
    const double origin[3] = {0, 0, 0}, h[3] = {1, 1, 1};
    const int64_t n[3] = {2, 3, 4};

    /* execute before any geometry */
    st = tbrf_execute(p, 0, v);
    CHECK(st == TBRF_ERR_NO_GEOMETRY, "execute before geometry: %d", st);
    expect_msg(p, st, "execute before geometry");
    CHECK(tbrf_plan_count(p) == 0, "count before geometry");
    st = tbrf_execute_grid_stream(p, 0, push, &(cb_ctx){0});
    CHECK(st == TBRF_ERR_NO_GEOMETRY, "grid stream before geometry: %d", st);

    /* NULL arguments */
    CHECK(tbrf_set_grid(NULL, origin, h, n) == TBRF_ERR_NULL, "set_grid(NULL plan)");
    st = tbrf_set_grid(p, NULL, h, n);
    CHECK(st == TBRF_ERR_NULL, "set_grid origin NULL");
    expect_msg(p, st, "set_grid origin NULL");
    CHECK(tbrf_set_grid(p, origin, NULL, n) == TBRF_ERR_NULL, "set_grid spacing NULL");
    CHECK(tbrf_set_grid(p, origin, h, NULL) == TBRF_ERR_NULL, "set_grid n NULL");
    CHECK(tbrf_set_points(NULL, 1, origin) == TBRF_ERR_NULL, "set_points(NULL plan)");
    st = tbrf_set_points(p, 1, NULL);
    CHECK(st == TBRF_ERR_NULL, "set_points xyz NULL");
    expect_msg(p, st, "set_points xyz NULL");
    CHECK(tbrf_execute(NULL, 0, v) == TBRF_ERR_NULL, "execute(NULL plan)");

    /* grid sizes */
    struct { int64_t n[3]; int want; const char *what; } gs[] = {
        {{0, 3, 4}, TBRF_ERR_SIZE, "n[0] = 0"},
        {{2, -3, 4}, TBRF_ERR_SIZE, "n[1] = -3"},
        {{2, 3, 0}, TBRF_ERR_SIZE, "n[2] = 0"},
        {{(int64_t)1 << 40, (int64_t)1 << 40, (int64_t)1 << 40}, TBRF_ERR_SIZE, "n = 2^40 each"},
        {{(int64_t)1 << 21, (int64_t)1 << 21, (int64_t)1 << 21}, TBRF_ERR_SIZE, "n = 2^21 each (2^63)"},
        {{INT64_MAX, 2, 1}, TBRF_ERR_SIZE, "n = INT64_MAX x 2"},
    };
    double tiny[3] = {1e-30, 1e-30, 1e-30};
    for (size_t i = 0; i < sizeof gs / sizeof gs[0]; i++) {
        /* a tiny spacing keeps huge grids inside the domain, so only the
         * size can be the reason */
        st = tbrf_set_grid(p, origin, tiny, gs[i].n);
        CHECK(st == gs[i].want, "set_grid %s: %d (%s), expected %s", gs[i].what, st,
              tbrf_strerror(st), tbrf_strerror(gs[i].want));
        if (st) expect_msg(p, st, gs[i].what);
    }
    /* spacing / origin values */
    double hbad[][3] = {{0, 1, 1}, {1, -1, 1}, {1, 1, NAN}, {INFINITY, 1, 1}};
    for (int i = 0; i < 4; i++) {
        st = tbrf_set_grid(p, origin, hbad[i], n);
        CHECK(st == TBRF_ERR_INVALID, "set_grid spacing (%g,%g,%g): %d", hbad[i][0], hbad[i][1],
              hbad[i][2], st);
        if (st) expect_msg(p, st, "bad spacing");
    }
    double obad[][3] = {{NAN, 0, 0}, {0, -INFINITY, 0}};
    for (int i = 0; i < 2; i++) {
        st = tbrf_set_grid(p, obad[i], h, n);
        CHECK(st == TBRF_ERR_INVALID, "set_grid origin (%g,%g,%g): %d", obad[i][0], obad[i][1],
              obad[i][2], st);
    }
    /* grid outside the domain */
    double o_out[3] = {-0.5, 0, 0}, o_far[3] = {9.5, 0, 0};
    st = tbrf_set_grid(p, o_out, h, n);
    CHECK(st == TBRF_ERR_OUT_OF_DOMAIN, "grid starting below lo: %d", st);
    expect_msg(p, st, "grid below lo");
    st = tbrf_set_grid(p, o_far, h, n); /* ends at x = 10.5 > 10 */
    CHECK(st == TBRF_ERR_OUT_OF_DOMAIN, "grid ending beyond hi: %d", st);
    int64_t nbig[3] = {12, 3, 4};
    st = tbrf_set_grid(p, origin, h, nbig); /* x up to 11 */
    CHECK(st == TBRF_ERR_OUT_OF_DOMAIN, "grid too long: %d", st);
    /* exactly on the boundary is inside */
    int64_t nfull[3] = {11, 9, 7};
    double *vf = tu_malloc(11 * 9 * 7 * sizeof *vf);
    st = tbrf_set_grid(p, origin, h, nfull);
    CHECK(st == TBRF_OK, "grid filling [lo, hi] exactly: %s", tbrf_plan_message(p));
    CHECK(tbrf_plan_status(p) == TBRF_OK && tbrf_plan_message(p)[0] == '\0',
          "status/message not reset after success");
    if (st == TBRF_OK) {
        CHECK(tbrf_plan_count(p) == 11 * 9 * 7, "count");
        CHECK(tbrf_execute(p, 0, vf) == TBRF_OK, "execute full grid");
        st = tbrf_execute(p, 0, NULL);
        CHECK(st == TBRF_ERR_NULL, "execute values NULL: %d", st);
        expect_msg(p, st, "execute values NULL");
    }
    free(vf);

    /* points */
    double pts[6] = {1, 1, 1, 2, 2, 2};
    st = tbrf_set_points(p, -1, pts);
    CHECK(st == TBRF_ERR_SIZE, "set_points n = -1: %d", st);
    expect_msg(p, st, "set_points n < 0");
    st = tbrf_set_points(p, 0, NULL);
    CHECK(st == TBRF_OK, "set_points n = 0, NULL: %d", st);
    if (st == TBRF_OK) {
        CHECK(tbrf_plan_count(p) == 0, "count 0");
        CHECK(tbrf_execute(p, 0, NULL) == TBRF_OK, "execute 0 points into NULL");
    }
    double out_pts[][3] = {{-0.1, 1, 1}, {1, 8.01, 1}, {1, 1, 1e300}, {INFINITY, 1, 1},
                           {1, -INFINITY, 1}};
    for (int i = 0; i < 5; i++) {
        double q[6] = {1, 1, 1, out_pts[i][0], out_pts[i][1], out_pts[i][2]};
        st = tbrf_set_points(p, 2, q);
        CHECK(st == TBRF_ERR_OUT_OF_DOMAIN, "point (%g,%g,%g): %d", out_pts[i][0], out_pts[i][1],
              out_pts[i][2], st);
        if (st) expect_msg(p, st, "point outside");
    }
    double qn[6] = {1, 1, 1, 1, NAN, 1};
    st = tbrf_set_points(p, 2, qn);
    CHECK(in_set(st, TBRF_ERR_OUT_OF_DOMAIN, TBRF_ERR_INVALID), "NaN point: %d", st);
    if (st) expect_msg(p, st, "NaN point");
    /* points moved outside after set_points: execute must refuse */
    double mv[6] = {1, 1, 1, 2, 2, 2};
    CHECK(tbrf_set_points(p, 2, mv) == TBRF_OK, "set_points");
    mv[4] = 100.0;
    st = tbrf_execute(p, 0, v);
    CHECK(st == TBRF_ERR_OUT_OF_DOMAIN, "execute with a point moved outside: %d (%s)", st,
          tbrf_strerror(st));
    if (st) expect_msg(p, st, "moved point");
    mv[4] = 2.0;
    CHECK(tbrf_execute(p, 0, v) == TBRF_OK, "execute after moving back");
    /* grid stream on a points geometry */
    st = tbrf_execute_grid_stream(p, 0, push, &(cb_ctx){0});
    CHECK(st == TBRF_ERR_NO_GEOMETRY, "grid stream on points: %d", st);
    expect_msg(p, st, "grid stream on points");

    /* streaming callbacks */
    tu_rng rng = {5};
    double *xyz = tu_random_points(&rng, 1000, 3, LO, HI);
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.chunk = 100;
    tbrf_plan *q = tu_plan(gauss, 3, LO, HI, 0.5, 1, &o);
    if (q) {
        cb_ctx c = {xyz, 1000, -1, -1, 0, 0, 0};
        CHECK(tbrf_execute_stream(q, 0, NULL, push, &c) == TBRF_ERR_NULL, "stream pull NULL");
        CHECK(tbrf_execute_stream(q, 0, pull, NULL, &c) == TBRF_ERR_NULL, "stream push NULL");
        CHECK(tbrf_execute_stream(NULL, 0, pull, push, &c) == TBRF_ERR_NULL, "stream plan NULL");
        c = (cb_ctx){xyz, 1000, -1, -1, 0, 0, 0};
        CHECK(tbrf_execute_stream(q, 0, pull, push, &c) == TBRF_OK, "stream ok");
        CHECK(c.pushes == 10, "10 pushes of 100, got %d", c.pushes);
        c = (cb_ctx){xyz, 1000, 3, -1, 0, 0, 0};
        st = tbrf_execute_stream(q, 0, pull, push, &c);
        CHECK(st == TBRF_ERR_CALLBACK, "pull returning 42: %d", st);
        expect_msg(q, st, "pull abort");
        CHECK(c.pushes == 3, "pushes before the aborting pull: %d", c.pushes);
        c = (cb_ctx){xyz, 1000, -1, 2, 0, 0, 0};
        st = tbrf_execute_stream(q, 0, pull, push, &c);
        CHECK(st == TBRF_ERR_CALLBACK, "push returning -7: %d", st);
        expect_msg(q, st, "push abort");
        CHECK(c.pulls == 3, "no pull after the aborting push: %d pulls", c.pulls);
        for (int b = 1; b <= 3; b++) {
            c = (cb_ctx){xyz, 1000, -1, -1, b, 0, 0};
            st = tbrf_execute_stream(q, 0, pull, push, &c);
            int want = b == 3 ? TBRF_ERR_OUT_OF_DOMAIN : TBRF_ERR_INVALID;
            CHECK(in_set(st, want, b == 3 ? -1 : TBRF_ERR_CALLBACK),
                  "pull with bad output %d: %d (%s)", b, st, tbrf_strerror(st));
            if (st) expect_msg(q, st, "bad pull output");
            CHECK(c.pushes == 0, "pushed despite bad pull output %d", b);
        }
        /* grid stream push abort */
        CHECK(tbrf_set_grid(q, origin, h, nfull) == TBRF_OK, "set_grid");
        CHECK(tbrf_execute_grid_stream(q, 0, NULL, NULL) == TBRF_ERR_NULL, "grid stream push NULL");
        c = (cb_ctx){NULL, 0, -1, 1, 0, 0, 0};
        st = tbrf_execute_grid_stream(q, 0, push, &c);
        CHECK(st == TBRF_ERR_CALLBACK, "grid stream push abort: %d", st);
        expect_msg(q, st, "grid push abort");
        CHECK(c.pushes == 2, "grid pushes until the abort: %d", c.pushes);
        /* the plan still works afterwards */
        double *g = tu_malloc(11 * 9 * 7 * sizeof *g);
        CHECK(tbrf_execute(q, 0, g) == TBRF_OK, "execute after aborted streams");
        CHECK(tbrf_plan_status(q) == TBRF_OK, "status reset");
        free(g);
        tbrf_destroy(q);
    }
    free(xyz);

    /* 2D plan: n[2] must be 1 */
    tbrf_plan *p2 = tu_plan(gauss, 2, LO, HI, 0.5, 1, NULL);
    if (p2) {
        int64_t n2[3] = {4, 4, 2};
        st = tbrf_set_grid(p2, origin, h, n2);
        CHECK(st == TBRF_ERR_SIZE || st == TBRF_ERR_INVALID, "2D grid with n[2] = 2: %d", st);
        if (st) expect_msg(p2, st, "2D n[2] = 2");
        int64_t n1[3] = {4, 4, 1};
        double hz[3] = {1, 1, NAN}; /* z spacing ignored in 2D */
        CHECK(tbrf_set_grid(p2, origin, hz, n1) == TBRF_OK, "2D grid with NaN z spacing: %s",
              tbrf_plan_message(p2));
        double q2[4] = {1, 1, 10.5, 1};
        st = tbrf_set_points(p2, 2, q2);
        CHECK(st == TBRF_ERR_OUT_OF_DOMAIN, "2D point outside: %d", st);
        tbrf_destroy(p2);
    }
    tbrf_destroy(p);
}

int main(void)
{
    REQUIRE(tbrf_model_gaussian(1.0, &gauss) == TBRF_OK, check_report("test_api_errors"), "model");
    check_strings();
    check_make_plan();
    check_embedding();
    check_geometry_and_execute();
    tbrf_model_destroy(gauss);
    return check_report("test_api_errors");
}
