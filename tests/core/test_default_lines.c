/* test_default_lines.c — the library's default lines (tbrf_default_lines,
 * tbrf_grid_isotropy; doc/method.md, "How many lines"): the rule's numbers
 * on the grids the docs name and at its bounds, and a plan left with
 * opts.lines = 0 drawing them at its first geometry, bitwise the plan
 * given that number, the same for a sub-grid of the grid, kept by later
 * geometries, and left unset (so a later geometry may try again) when
 * they do not fit. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/check.h"
#include "tbrf.h"

#define PI 3.14159265358979323846

/* The rule on a grid of cells 0 .. n - 1 of spacing h (its default
 * domain and resolution, as every face takes them). */
static int32_t grid_lines(int dim, const int64_t n[3], double h, const tbrf_opts *o)
{
    double lo[3], hi[3], res;
    const double sp[3] = {h, h, h}, origin[3] = {0, 0, 0};
    int32_t lines = -1;
    CHECK(tbrf_grid_default_domain(dim, origin, sp, n, lo, hi, &res) == TBRF_OK &&
              tbrf_default_lines(dim, lo, hi, res, n, sp, o, &lines) == TBRF_OK,
          "default_lines");
    return lines;
}

static void rule(void)
{
    /* doc/method.md's numbers: (k_N / (0.63 k_f))^2 in 3D */
    const int64_t g64[3] = {64, 64, 64}, g128[3] = {128, 128, 128}, g32[3] = {32, 32, 32};
    CHECK(grid_lines(3, g64, 1.0, NULL) == 2580, "64^3: %d", grid_lines(3, g64, 1.0, NULL));
    CHECK(grid_lines(3, g128, 1.0, NULL) == 10320, "128^3: %d", grid_lines(3, g128, 1.0, NULL));
    CHECK(grid_lines(3, g128, 0.25, NULL) == 10320, "the rule is in fundamentals: any spacing");
    CHECK(grid_lines(3, g32, 1.0, NULL) == TBRF_DEFAULT_LINES_MIN, "32^3 keeps the minimum");
    /* 2D: k_N / (0.57 k_f), 450 for 512^2 (the minimum then), 1053 for 1200 */
    const int64_t s512[3] = {512, 512, 1}, s1200[3] = {1200, 16, 1};
    CHECK(grid_lines(2, s512, 1.0, NULL) == TBRF_DEFAULT_LINES_MIN, "512^2");
    CHECK(grid_lines(2, s1200, 1.0, NULL) == 1053, "1200x16: %d", grid_lines(2, s1200, 1.0, NULL));
    /* the cost bound, and the memory bound of a vector field (the
     * command's cli_readme_defaults case: 200x200x2, oversampling 16) */
    const int64_t g256[3] = {256, 256, 256}, v200[3] = {200, 200, 2};
    CHECK(grid_lines(3, g256, 1.0, NULL) == TBRF_DEFAULT_LINES_MAX, "256^3 at the cost bound");
    tbrf_opts o;
    tbrf_default_opts(&o);
    CHECK(o.lines == 0, "tbrf_default_opts leaves the lines to the geometry: %d", o.lines);
    o.vector = TBRF_VECTOR_SOLENOIDAL;
    o.oversampling = 16;
    CHECK(grid_lines(3, v200, 1.0, &o) == 3725, "vector 200x200x2: %d", grid_lines(3, v200, 1.0, &o));
    /* given lines are what the plan draws; points take the minimum */
    o.lines = 77;
    CHECK(grid_lines(3, g128, 1.0, &o) == 77, "given lines");
    const double lo[3] = {0, 0, 0}, hi[3] = {100, 100, 100};
    int32_t lines = -1;
    CHECK(tbrf_default_lines(3, lo, hi, 0.01, NULL, NULL, NULL, &lines) == TBRF_OK &&
          lines == TBRF_DEFAULT_LINES_MIN, "points: %d", lines);
    /* statuses */
    CHECK(tbrf_default_lines(3, lo, hi, 1.0, NULL, NULL, NULL, NULL) == TBRF_ERR_NULL, "NULL lines");
    CHECK(tbrf_default_lines(3, NULL, hi, 1.0, NULL, NULL, NULL, &lines) == TBRF_ERR_NULL &&
          lines == 0, "NULL lo");
    CHECK(tbrf_default_lines(4, lo, hi, 1.0, NULL, NULL, NULL, &lines) == TBRF_ERR_INVALID, "dim 4");
    /* the isotropy limit: 0.63 sqrt(L) kf, and the lines that reach k_N */
    double kf, kn, kiso, need;
    const double h[3] = {1, 1, 1};
    CHECK(tbrf_grid_isotropy(3, g64, h, 1024, &kf, &kn, &kiso, &need) == TBRF_OK, "isotropy");
    CHECK(fabs(kf - 2 * PI / 64) < 1e-15 && fabs(kn - PI) < 1e-15 &&
          fabs(kiso - 0.63 * 32 * kf) < 1e-12 && need == 2580, "kf %g kn %g kiso %g need %g", kf,
          kn, kiso, need);
    CHECK(tbrf_grid_isotropy(3, g64, h, 1024, NULL, &kn, &kiso, &need) == TBRF_ERR_NULL, "NULL kf");
    CHECK(tbrf_grid_isotropy(1, g64, h, 1024, &kf, &kn, &kiso, &need) == TBRF_ERR_INVALID, "dim 1");
}

static tbrf_plan *plan_of(const tbrf_model *m, int32_t lines, int vector)
{
    const double lo[3] = {0, 0, 0}, hi[3] = {63, 3, 3};
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.lines = lines;
    o.vector = vector;
    tbrf_plan *p = NULL;
    CHECK(tbrf_make_plan(m, 3, lo, hi, 1.0, 7, &o, &p) == TBRF_OK, "make_plan: %s",
          tbrf_plan_message(p));
    return p;
}

static int32_t lines_of(const tbrf_plan *p)
{
    tbrf_plan_info info;
    return tbrf_plan_get_info(p, &info) == TBRF_OK ? info.lines : -1;
}

static int stream_pull(void *user, int64_t first, int64_t max, double *xyz, int64_t *count)
{
    const double *pts = user;
    const int64_t n = 40 - first < max ? 40 - first : max;
    memcpy(xyz, pts + 3 * first, sizeof(double) * 3 * (size_t)n);
    *count = n;
    return 0;
}

static int stream_push(void *user, int64_t first, int64_t count, const void *values)
{
    (void)user, (void)first, (void)count, (void)values;
    return 0;
}

/* A plan with lines 0 on the 64x4x4 grid: 2580 lines, like 64^3's
 * (the rule sees the longest side), and the field of a plan given 2580. */
static void plans(const tbrf_model *m)
{
    const int64_t n[3] = {64, 4, 4}, start[3] = {10, 1, 0}, count[3] = {20, 2, 4};
    const double origin[3] = {0, 0, 0}, spacing[3] = {1, 1, 1};
    const size_t N = 64 * 4 * 4;
    double *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *s = malloc(160 * sizeof *s);
    tbrf_plan *p = plan_of(m, 0, TBRF_SCALAR), *q = plan_of(m, 2580, TBRF_SCALAR);
    CHECK(lines_of(p) == 0, "no lines before a geometry: %d", lines_of(p));
    CHECK(tbrf_set_grid(p, origin, spacing, n) == TBRF_OK, "set_grid: %s", tbrf_plan_message(p));
    CHECK(lines_of(p) == 2580, "the grid's default: %d", lines_of(p));
    CHECK(tbrf_set_grid(q, origin, spacing, n) == TBRF_OK && tbrf_execute(p, 3, a) == TBRF_OK &&
          tbrf_execute(q, 3, b) == TBRF_OK, "execute");
    CHECK(memcmp(a, b, N * sizeof *a) == 0, "lines 0 gives the field of the default's number");
    /* a later, smaller geometry keeps them */
    const int64_t small[3] = {4, 4, 4};
    CHECK(tbrf_set_grid(p, origin, spacing, small) == TBRF_OK && lines_of(p) == 2580,
          "a later grid keeps the lines: %d", lines_of(p));
    tbrf_destroy(p);
    /* a sub-grid sizes them by its whole grid: every box the same lines */
    p = plan_of(m, 0, TBRF_SCALAR);
    CHECK(tbrf_set_subgrid(p, origin, spacing, n, start, count) == TBRF_OK && lines_of(p) == 2580,
          "a sub-grid's lines are its whole grid's: %d", lines_of(p));
    CHECK(tbrf_execute(p, 3, s) == TBRF_OK, "execute sub-grid");
    int same = 1;
    for (int k = 0; k < 4; k++)
        for (int j = 0; j < 2; j++)
            same &= memcmp(s + (k * 2 + j) * 20, a + (k * 256 + (j + 1) * 64 + 10), 20 * sizeof *s) == 0;
    CHECK(same, "the sub-grid's cells are the whole grid's bits");
    tbrf_destroy(p);
    /* points, and a stream without set_points, take the minimum */
    double pts[120];
    for (int i = 0; i < 120; i++)
        pts[i] = i % 3 == 0 ? 0.5 * i : 0.025 * i;
    p = plan_of(m, 0, TBRF_SCALAR);
    CHECK(tbrf_set_points(p, 40, pts) == TBRF_OK && lines_of(p) == TBRF_DEFAULT_LINES_MIN,
          "points: %d", lines_of(p));
    tbrf_destroy(p);
    p = plan_of(m, 0, TBRF_SCALAR);
    CHECK(tbrf_execute_stream(p, 0, stream_pull, stream_push, pts) == TBRF_OK &&
          lines_of(p) == TBRF_DEFAULT_LINES_MIN, "stream: %s", tbrf_plan_message(p));
    tbrf_destroy(p);
    tbrf_destroy(q);
    free(a);
    free(b);
    free(s);
}

/* Lines that do not fit at the first geometry: that call fails with the
 * allocation's status and message, the plan stays usable and unset, and
 * a geometry whose lines fit then draws them. The budget sits between
 * the 1024 lines of points and the grid's 2580 (a vector field holds
 * 1 + dim sets of 8 M bytes a line). */
static void too_many(const tbrf_model *m)
{
    tbrf_plan *probe = plan_of(m, 1024, TBRF_VECTOR_SOLENOIDAL);
    tbrf_plan_info info;
    tbrf_plan_get_info(probe, &info);
    tbrf_destroy(probe);
    char budget[64];
    snprintf(budget, sizeof budget, "%.0f", 8.0 * (double)info.line_samples * 4.0 * 1800.0);
    setenv("TBRF_MEMORY_BUDGET", budget, 1);
    const int64_t n[3] = {64, 4, 4};
    const double origin[3] = {0, 0, 0}, spacing[3] = {1, 1, 1};
    tbrf_plan *p = plan_of(m, 0, TBRF_VECTOR_SOLENOIDAL);
    CHECK(tbrf_set_grid(p, origin, spacing, n) == TBRF_ERR_SIZE, "2580 lines over the budget: %s",
          tbrf_plan_message(p));
    CHECK(strstr(tbrf_plan_message(p), "2580 lines") != NULL, "message: %s", tbrf_plan_message(p));
    CHECK(lines_of(p) == 0 && tbrf_plan_count(p) == 0, "unset after the failure: %d", lines_of(p));
    double pts[6] = {1, 1, 1, 2, 2, 2}, v[6];
    CHECK(tbrf_set_points(p, 2, pts) == TBRF_OK && lines_of(p) == TBRF_DEFAULT_LINES_MIN &&
          tbrf_execute(p, 0, v) == TBRF_OK, "points then fit: %s", tbrf_plan_message(p));
    tbrf_destroy(p);
    unsetenv("TBRF_MEMORY_BUDGET");
}

int main(void)
{
    tbrf_model *m = NULL;
    CHECK(tbrf_model_gaussian(3.0, &m) == TBRF_OK, "gaussian model");
    rule();
    plans(m);
    too_many(m);
    tbrf_model_destroy(m);
    return check_report("test_default_lines");
}
