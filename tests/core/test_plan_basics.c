/* test_plan_basics.c — the plan's life cycle on the CPU backend: sizes
 * and info, point and grid evaluation agree, the line cache, streaming
 * with odd chunk sizes, messages on failure. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "support/check.h"
#include "tbrf.h"

typedef struct stream_state {
    const double *xyz;
    int64_t n;
    double *out;
} stream_state;

static int pull(void *user, int64_t first, int64_t max, double *xyz, int64_t *count)
{
    stream_state *s = user;
    int64_t c = s->n - first < max ? s->n - first : max;
    memcpy(xyz, s->xyz + 3 * first, sizeof(double) * 3 * (size_t)c);
    *count = c;
    return 0;
}

static int push(void *user, int64_t first, int64_t count, const void *values)
{
    stream_state *s = user;
    memcpy(s->out + first, values, sizeof(double) * (size_t)count);
    return 0;
}

int main(void)
{
    tbrf_model *m = NULL;
    CHECK(tbrf_model_gaussian(4.0, &m) == TBRF_OK, "gaussian model");
    const double lo[3] = {0, 0, 0}, hi[3] = {31, 23, 15};
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.lines = 256;
    tbrf_plan *p = NULL;
    int st = tbrf_make_plan(m, 3, lo, hi, 1.0, 42, &o, &p);
    CHECK(st == TBRF_OK, "make_plan: %s", tbrf_plan_message(p));
    tbrf_plan_info info;
    CHECK(tbrf_plan_get_info(p, &info) == TBRF_OK, "info");
    CHECK(info.lines == 256 && info.dim == 3 && info.line_spacing == 0.25, "info fields");
    CHECK(fabs(info.variance - 1.0) < 1e-12, "variance %g", info.variance);
    CHECK(fabs(info.variance_resolved - 1.0) < 1e-9, "resolved variance %.12g", info.variance_resolved);

    CHECK(tbrf_execute(p, 0, NULL) == TBRF_ERR_NO_GEOMETRY, "execute before geometry");
    CHECK(strlen(tbrf_plan_message(p)) > 0, "no message after failure");

    const int64_t n[3] = {32, 24, 16};
    const double origin[3] = {0, 0, 0}, spacing[3] = {1, 1, 1};
    CHECK(tbrf_set_grid(p, origin, spacing, n) == TBRF_OK, "set_grid: %s", tbrf_plan_message(p));
    const int64_t N = tbrf_plan_count(p);
    CHECK(N == 32 * 24 * 16, "count %lld", (long long)N);
    double *grid = malloc(sizeof(double) * (size_t)N);
    CHECK(tbrf_execute(p, 5, grid) == TBRF_OK, "execute grid: %s", tbrf_plan_message(p));

    /* Points at the cell centres give the same values to rounding. */
    double *xyz = malloc(sizeof(double) * 3 * (size_t)N), *pts = malloc(sizeof(double) * (size_t)N);
    for (int64_t c = 0; c < N; c++) {
        xyz[3 * c] = (double)(c % 32);
        xyz[3 * c + 1] = (double)((c / 32) % 24);
        xyz[3 * c + 2] = (double)(c / (32 * 24));
    }
    CHECK(tbrf_set_points(p, N, xyz) == TBRF_OK, "set_points: %s", tbrf_plan_message(p));
    CHECK(tbrf_execute(p, 5, pts) == TBRF_OK, "execute points: %s", tbrf_plan_message(p));
    double maxdiff = 0.0, sum2 = 0.0;
    for (int64_t c = 0; c < N; c++) {
        maxdiff = fmax(maxdiff, fabs(grid[c] - pts[c]));
        sum2 += grid[c] * grid[c];
    }
    CHECK(maxdiff < 1e-11, "grid vs points max difference %.3g", maxdiff);
    CHECK(sum2 / N > 0.2 && sum2 / N < 5, "mean square %g is implausible", sum2 / N);

    /* Streaming with a chunk size that does not divide N: same bytes. */
    tbrf_destroy(p);
    o.chunk = 1000;
    CHECK(tbrf_make_plan(m, 3, lo, hi, 1.0, 42, &o, &p) == TBRF_OK, "make_plan 2");
    double *streamed = calloc((size_t)N, sizeof(double));
    stream_state s = {xyz, N, streamed};
    CHECK(tbrf_execute_stream(p, 5, pull, push, &s) == TBRF_OK, "stream: %s", tbrf_plan_message(p));
    CHECK(memcmp(streamed, pts, sizeof(double) * (size_t)N) == 0, "streamed values differ from execute");

    /* A point outside the domain is refused, with its index in the message. */
    xyz[3 * 100] = 40.0;
    CHECK(tbrf_set_points(p, N, xyz) == TBRF_ERR_OUT_OF_DOMAIN, "outside point accepted");
    CHECK(strstr(tbrf_plan_message(p), "point 100") != NULL, "message: %s", tbrf_plan_message(p));

    /* A failed make returns a plan that carries the message. */
    tbrf_plan *bad = NULL;
    o.lines = -1;
    CHECK(tbrf_make_plan(m, 3, lo, hi, 1.0, 42, &o, &bad) == TBRF_ERR_INVALID, "lines = -1 accepted");
    CHECK(bad && strstr(tbrf_plan_message(bad), "lines") != NULL, "message: %s", tbrf_plan_message(bad));
    CHECK(tbrf_set_grid(bad, origin, spacing, n) == TBRF_ERR_BAD_PLAN, "failed plan usable");
    tbrf_destroy(bad);

    free(streamed);
    free(grid);
    free(xyz);
    free(pts);
    tbrf_destroy(p);
    tbrf_model_destroy(m);
    return check_report("test_plan_basics");
}
