/* test_gpu_conformance.c — the conformance suite every GPU backend runs
 * (doc/design.md): usage `test_gpu_conformance opencl|cuda`.
 *
 * Skips (exit 77, ctest SKIP_RETURN_CODE) with a message when the backend
 * is not built or has no device. Otherwise, against the CPU backend:
 *  - 3D non-cubic anisotropic grids, a 2D grid, 3D and 2D points, in double
 *    and float: double values equal the CPU backend's bit for bit, float
 *    ones within max |gpu - cpu| / max |cpu| <= TOL_FLOAT
 *    (doc/gpu.md explains the tolerances and the values measured on PoCL);
 *  - on the backend itself, bitwise: streamed grid chunks (opts.chunk) and
 *    streamed points equal one-shot execution; a tiny forced device chunk
 *    (TBRF_DEVICE_CHUNK, double buffering over many chunks) equals the
 *    default, and so does a large call cut into 4 chunks vs one chunk; every work-group size and unroll factor gives the same bits
 *    (the line sum keeps its order); a second realization re-uploads lines;
 *  - sub-grids (tbrf_set_subgrid: slabs, pencils, blocks) equal the
 *    whole grid bitwise, on the backend, and in double the CPU's too;
 *  - tuning (work_group = unroll = 0) writes the cache named by
 *    TBRF_WISDOM, and a later plan reads it; a small first call (fewer
 *    values than one tuning sample) runs with defaults and writes nothing;
 *  - bad options: a work-group size above the device maximum is refused
 *    with TBRF_ERR_INVALID and a message.
 */
#define _POSIX_C_SOURCE 200809L
#include "support/testutil.h"
#include "support/subgrid.h"

#include <unistd.h>

/* double: the kernels do the CPU backend's IEEE adds, multiplies and fmas
 * in its order on the same uploaded lines, so the bits must be equal;
 * float: doc/gpu.md derives 1e-5 from float accumulation over L lines */
#define TOL_FLOAT 1e-5

static int backend = TBRF_BACKEND_OPENCL;
static tbrf_model *model;
static const double LO[3] = {0, 0, 0}, HI[3] = {20, 16, 12};

static tbrf_plan *make(int be, int dim, int precision, int wg, int unroll, int64_t chunk, int lines)
{
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.backend = be;
    o.precision = precision;
    o.work_group = wg;
    o.unroll = unroll;
    o.chunk = chunk;
    o.lines = lines;
    return tu_plan(model, dim, LO, HI, 0.5, 1234, &o);
}

static size_t vs(int precision) { return precision == TBRF_FLOAT ? sizeof(float) : sizeof(double); }

/* Executes plan p on a grid or points (xyz != NULL) into a new array. */
static void *run(tbrf_plan *p, int precision, const int64_t n[3], int64_t np, const double *xyz,
                 int dim, uint64_t r)
{
    if (!p)
        return NULL;
    int64_t count;
    if (xyz) {
        CHECK(tbrf_set_points(p, np, xyz) == TBRF_OK, "set_points: %s", tbrf_plan_message(p));
        count = np;
    } else {
        double origin[3] = {0.25, 0.5, 0.75}, sp[3] = {0.5, 0.37, 0.61};
        if (dim == 2)
            origin[2] = 0, sp[2] = 1;
        CHECK(tbrf_set_grid(p, origin, sp, n) == TBRF_OK, "set_grid: %s", tbrf_plan_message(p));
        count = n[0] * n[1] * n[2];
    }
    void *v = tu_malloc((size_t)count * vs(precision));
    if (tu_execute(p, r, v) != TBRF_OK) {
        free(v);
        return NULL;
    }
    /* the bitwise comparisons below would pass on two equal NaN arrays */
    int64_t bad = 0;
    for (int64_t i = 0; i < count; i++)
        bad += !isfinite(tu_value(v, precision, i));
    CHECK(bad == 0, "%lld of %lld values are not finite", (long long)bad, (long long)count);
    return v;
}

static void compare_cpu(const char *what, int dim, int precision, const int64_t n[3], int64_t np,
                        const double *xyz, int lines)
{
    tbrf_plan *c = make(TBRF_BACKEND_CPU, dim, precision, 0, 0, 0, lines);
    tbrf_plan *g = make(backend, dim, precision, 64, 4, 0, lines);
    int64_t count = xyz ? np : n[0] * n[1] * n[2];
    for (uint64_t r = 0; r < 2; r++) {
        void *a = run(c, precision, n, np, xyz, dim, r), *b = run(g, precision, n, np, xyz, dim, r);
        if (a && b) {
            double d = tu_rel_diff(b, a, precision, count);
            if (precision == TBRF_FLOAT) {
                printf("  %-28s float  r=%llu: max|gpu-cpu|/max|cpu| = %.3g (tolerance %.0e)\n", what,
                       (unsigned long long)r, d, TOL_FLOAT);
                CHECK(d <= TOL_FLOAT, "%s: relative difference %.3g > %.0e", what, d, TOL_FLOAT);
            } else {
                int same = memcmp(a, b, (size_t)count * sizeof(double)) == 0;
                printf("  %-28s double r=%llu: %s (max|gpu-cpu|/max|cpu| = %.3g)\n", what,
                       (unsigned long long)r, same ? "the CPU backend's bits" : "DIFFERENT bits", d);
                CHECK(same, "%s: double values differ from the CPU backend's (relative %.3g)", what, d);
            }
        }
        free(a);
        free(b);
    }
    tbrf_destroy(c);
    tbrf_destroy(g);
}

typedef struct {
    const double *xyz;
    int dim;
    int64_t n, next;
    char *out;
    size_t vsize;
    int ok;
} sctx;

static int pull(void *u, int64_t first, int64_t max, double *xyz, int64_t *count)
{
    sctx *s = u;
    int64_t k = s->n - first < max ? s->n - first : max;
    memcpy(xyz, s->xyz + (size_t)s->dim * (size_t)first, (size_t)(k * s->dim) * sizeof(double));
    *count = k;
    return 0;
}

static int push(void *u, int64_t first, int64_t count, const void *v)
{
    sctx *s = u;
    if (first != s->next)
        s->ok = 0;
    memcpy(s->out + (size_t)first * s->vsize, v, (size_t)count * s->vsize);
    s->next = first + count;
    return 0;
}

static void streaming(int precision)
{
    const int64_t n[3] = {37, 23, 11};
    const int64_t cells = n[0] * n[1] * n[2];
    tbrf_plan *p = make(backend, 3, precision, 32, 2, 0, 128);
    void *ref = run(p, precision, n, 0, NULL, 3, 5);
    tbrf_destroy(p);
    /* streamed grid, small host chunks (rows of 37 cells, 3 rows per chunk) */
    p = make(backend, 3, precision, 32, 2, 100, 128);
    void *dummy = run(p, precision, n, 0, NULL, 3, 5);
    free(dummy);
    sctx s = {.out = tu_malloc((size_t)cells * vs(precision)), .vsize = vs(precision), .ok = 1};
    CHECK(tbrf_execute_grid_stream(p, 5, push, &s) == TBRF_OK, "grid stream: %s", tbrf_plan_message(p));
    CHECK(s.ok && s.next == cells && ref && memcmp(ref, s.out, (size_t)cells * vs(precision)) == 0,
          "streamed grid differs from one-shot (%s)", precision ? "float" : "double");
    tbrf_destroy(p);
    free(s.out);
    /* tiny forced device chunk: many double-buffered chunks */
    setenv("TBRF_DEVICE_CHUNK", "1000", 1);
    p = make(backend, 3, precision, 32, 2, 0, 128);
    void *tiny = run(p, precision, n, 0, NULL, 3, 5);
    unsetenv("TBRF_DEVICE_CHUNK");
    CHECK(ref && tiny && memcmp(ref, tiny, (size_t)cells * vs(precision)) == 0,
          "device chunks of 1000 cells differ from the default (%s)", precision ? "float" : "double");
    tbrf_destroy(p);
    free(tiny);
    /* every work-group size and unroll factor: same bits */
    static const int wgs[] = {1, 7, 64, 256}, uns[] = {1, 3, 8, 16};
    for (int i = 0; i < 4; i++) {
        p = make(backend, 3, precision, wgs[i], uns[i], 0, 128);
        void *v = run(p, precision, n, 0, NULL, 3, 5);
        CHECK(ref && v && memcmp(ref, v, (size_t)cells * vs(precision)) == 0,
              "work_group %d unroll %d differs (%s)", wgs[i], uns[i], precision ? "float" : "double");
        free(v);
        tbrf_destroy(p);
    }
    free(ref);

    /* points: streamed and tiny device chunks equal one-shot */
    tu_rng rng = {99};
    const int64_t np = 5000;
    double *xyz = tu_random_points(&rng, np, 3, LO, HI);
    p = make(backend, 3, precision, 64, 4, 0, 128);
    void *pref = run(p, precision, NULL, np, xyz, 3, 2);
    tbrf_destroy(p);
    p = make(backend, 3, precision, 64, 4, 777, 128);
    sctx t = {.xyz = xyz, .dim = 3, .n = np, .out = tu_malloc((size_t)np * vs(precision)),
              .vsize = vs(precision), .ok = 1};
    CHECK(tbrf_execute_stream(p, 2, pull, push, &t) == TBRF_OK, "point stream: %s", tbrf_plan_message(p));
    CHECK(t.ok && t.next == np && pref && memcmp(pref, t.out, (size_t)np * vs(precision)) == 0,
          "streamed points differ from one-shot (%s)", precision ? "float" : "double");
    tbrf_destroy(p);
    free(t.out);
    setenv("TBRF_DEVICE_CHUNK", "333", 1);
    p = make(backend, 3, precision, 64, 4, 0, 128);
    void *ptiny = run(p, precision, NULL, np, xyz, 3, 2);
    unsetenv("TBRF_DEVICE_CHUNK");
    CHECK(pref && ptiny && memcmp(pref, ptiny, (size_t)np * vs(precision)) == 0,
          "device chunks of 333 points differ from the default (%s)", precision ? "float" : "double");
    tbrf_destroy(p);
    free(ptiny);
    free(pref);
    free(xyz);
}

/* A call of >= 256 Ki cells is cut into 4 double-buffered device chunks;
 * one forced device chunk of the whole grid must give the same bits. */
static void split_chunks(int precision)
{
    const int64_t n[3] = {100, 80, 60}, cells = n[0] * n[1] * n[2];
    const double org[3] = {0, 0, 0}, sp[3] = {0.2, 0.2, 0.2};
    void *v[2] = {NULL, NULL};
    for (int k = 0; k < 2; k++) {
        if (k == 1)
            setenv("TBRF_DEVICE_CHUNK", "100000000", 1);
        tbrf_plan *p = make(backend, 3, precision, 64, 4, 0, 32);
        if (p && tbrf_set_grid(p, org, sp, n) == TBRF_OK) {
            v[k] = tu_malloc((size_t)cells * vs(precision));
            tu_execute(p, 3, v[k]);
        }
        tbrf_destroy(p);
        unsetenv("TBRF_DEVICE_CHUNK");
    }
    CHECK(v[0] && v[1] && memcmp(v[0], v[1], (size_t)cells * vs(precision)) == 0,
          "4 device chunks differ from one (%s)", precision ? "float" : "double");
    free(v[0]);
    free(v[1]);
}

/* Sub-grids (tbrf_set_subgrid: slabs, pencils, blocks, x splits) on the
 * backend give its whole grid's bits; in double also the CPU backend's
 * whole grid's bits (the kernels index global cells, as the CPU does). */
static void subgrids(int precision)
{
    const int64_t n[3] = {40, 24, 16};
    const double org[3] = {0.25, 0.5, 0.75}, sp[3] = {0.5, 0.37, 0.61};
    tbrf_plan *g = make(backend, 3, precision, 64, 4, 0, 64);
    tbrf_plan *c = make(TBRF_BACKEND_CPU, 3, precision, 0, 0, 0, 64);
    void *wg = run(g, precision, n, 0, NULL, 3, 1), *wc = run(c, precision, n, 0, NULL, 3, 1);
    if (wg && wc) {
        const char *what = precision == TBRF_FLOAT ? "float sub-grids = the backend's whole grid"
                                                   : "double sub-grids = the backend's whole grid";
        int bad = sg_check_all_splits(g, what, org, sp, n, 1, wg, vs(precision));
        if (precision == TBRF_DOUBLE && bad == 0)
            bad = sg_check_all_splits(g, "double sub-grids = the CPU's whole grid", org, sp, n, 1, wc,
                                      sizeof(double));
        printf("  sub-grids (%s): %s\n", precision == TBRF_FLOAT ? "float" : "double",
               bad == 0 ? "every box has the whole grid's bits" : "DIFFERENT bits");
    }
    free(wg);
    free(wc);
    tbrf_destroy(g);
    tbrf_destroy(c);
}

static void tuning(const char *wisdom)
{
    unlink(wisdom);
    const int64_t n[3] = {40, 30, 18};
    /* a small first call (< 32 Ki values) runs with defaults, caches nothing */
    tbrf_plan *p = make(backend, 3, TBRF_FLOAT, 0, 0, 0, 64);
    void *g = run(p, TBRF_FLOAT, n, 0, NULL, 3, 0);
    CHECK(g != NULL, "small untuned grid failed");
    free(g);
    tbrf_destroy(p);
    CHECK(access(wisdom, F_OK) != 0, "a %lld-cell call wrote the tuning cache", (long long)(n[0] * n[1] * n[2]));
    /* one tuning sample of points (doc/gpu.md: 32 Ki values on OpenCL,
     * 1 Mi on CUDA): measured and cached */
    tu_rng rng = {5};
    const int64_t np = backend == TBRF_BACKEND_CUDA ? (1 << 20) : 40000;
    double *xyz = tu_random_points(&rng, np, 3, LO, HI);
    p = make(backend, 3, TBRF_FLOAT, 0, 0, 0, 64);
    void *a = run(p, TBRF_FLOAT, NULL, np, xyz, 3, 0);
    tbrf_destroy(p);
    FILE *f = fopen(wisdom, "r");
    CHECK(f != NULL, "tuning did not write the cache %s", wisdom);
    if (f) {
        char line[1024] = "";
        if (fgets(line, sizeof line, f))
            printf("  tuning cache: %s", line);
        CHECK(strstr(line, "|points|float ") != NULL, "unexpected cache entry: %s", line);
        fclose(f);
    }
    p = make(backend, 3, TBRF_FLOAT, 0, 0, 0, 64);
    void *b = run(p, TBRF_FLOAT, NULL, np, xyz, 3, 0);
    CHECK(a && b && memcmp(a, b, (size_t)np * sizeof(float)) == 0, "tuned plans differ");
    tbrf_destroy(p);
    free(a);
    free(b);
    /* an unwritable cache is harmless */
    setenv("TBRF_WISDOM", "/nonexistent-dir/sub/wisdom", 1);
    p = make(backend, 3, TBRF_FLOAT, 0, 0, 0, 64);
    void *c = run(p, TBRF_FLOAT, NULL, np, xyz, 3, 0);
    CHECK(c != NULL, "an unwritable tuning cache broke execution");
    free(c);
    free(xyz);
    tbrf_destroy(p);
    setenv("TBRF_WISDOM", wisdom, 1);
}

static void bad_options(void)
{
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.backend = backend;
    o.work_group = 4096;
    tbrf_plan *p = NULL;
    int st = tbrf_make_plan(model, 3, LO, HI, 0.5, 1, &o, &p);
    if (st == TBRF_OK) { /* the device allows 4096: the kernel limit is checked at execute */
        const int64_t n[3] = {8, 8, 8};
        double sp[3] = {1, 1, 1}, org[3] = {0, 0, 0};
        double v[512];
        tbrf_set_grid(p, org, sp, n);
        st = tbrf_execute(p, 0, v);
        printf("  work_group 4096: %s (%s)\n", tbrf_strerror(st), tbrf_plan_message(p));
        CHECK(st == TBRF_OK || st == TBRF_ERR_INVALID, "work_group 4096: %s", tbrf_strerror(st));
    } else {
        printf("  work_group 4096 refused: %s\n", tbrf_plan_message(p));
        CHECK(st == TBRF_ERR_INVALID && strlen(tbrf_plan_message(p)) > 0, "status %s", tbrf_strerror(st));
    }
    tbrf_destroy(p);
    o.work_group = 0;
    o.device = 999;
    st = tbrf_make_plan(model, 3, LO, HI, 0.5, 1, &o, &p);
    printf("  device 999: %s (%s)\n", tbrf_strerror(st), tbrf_plan_message(p));
    CHECK(st == TBRF_ERR_NO_DEVICE && strstr(tbrf_plan_message(p), "999"), "device 999: %s",
          tbrf_strerror(st));
    tbrf_destroy(p);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "cuda") == 0)
        backend = TBRF_BACKEND_CUDA;
    const char *name = tbrf_backend_name(backend);
    int av = tbrf_backend_available(backend);
    if (av != TBRF_OK) {
        printf("SKIP test_gpu_conformance %s: %s\n", name, tbrf_strerror(av));
        return 77;
    }
    char wisdom[256];
    const char *w = getenv("TBRF_WISDOM");
    if (!w || !*w) {
        snprintf(wisdom, sizeof wisdom, "/tmp/tbrf-test-wisdom-%ld", (long)getpid());
        setenv("TBRF_WISDOM", wisdom, 1);
    } else {
        snprintf(wisdom, sizeof wisdom, "%s", w);
    }
    printf("test_gpu_conformance: backend %s\n", name);
    if (tbrf_model_gaussian(2.0, &model) != TBRF_OK)
        return 1;

    tu_rng rng = {7};
    const int64_t n3[3] = {40, 24, 16}, n2[3] = {40, 40, 1};
    double *p3 = tu_random_points(&rng, 4000, 3, LO, HI);
    double *p2 = tu_random_points(&rng, 4000, 2, LO, HI);
    for (int prec = 0; prec < 2; prec++) {
        compare_cpu("3D grid 40x24x16", 3, prec, n3, 0, NULL, 256);
        compare_cpu("2D grid 40x40", 2, prec, n2, 0, NULL, 256);
        compare_cpu("3D points", 3, prec, NULL, 4000, p3, 256);
        compare_cpu("2D points", 2, prec, NULL, 4000, p2, 256);
    }
    compare_cpu("3D grid, 1024 lines", 3, TBRF_FLOAT, n3, 0, NULL, 1024);
    free(p3);
    free(p2);
    streaming(TBRF_DOUBLE);
    streaming(TBRF_FLOAT);
    split_chunks(TBRF_DOUBLE);
    split_chunks(TBRF_FLOAT);
    subgrids(TBRF_DOUBLE);
    subgrids(TBRF_FLOAT);
    tuning(wisdom);
    bad_options();
    unlink(wisdom);
    tbrf_model_destroy(model);
    return check_report("test_gpu_conformance");
}
