/* test_engine.c — the turning-bands engine (c/engine/engine.h) on its
 * own, as the inflow sampler and the driver use it:
 *  1. an engine made with storage LINES projects, at points and on a
 *     sub-grid, bitwise what a plan made with the same arguments executes,
 *     scalar and vector, 2D and 3D, double and float;
 *  2. an engine made with storage WINDOWS (no line samples) given lines
 *     synthesised by the caller (tbrfi_engine_use_lines, the driver's path)
 *     projects the same bits; windows covering whole lines
 *     (tbrfi_engine_windows, the inflow sampler's path) are those lines;
 *  3. realizations alternate through the line cache without changing a
 *     bit;
 *  4. failures: no lines to synthesise with storage WINDOWS, bad options
 *     refused with the plan's message, NULL for a failed make never. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"
#include "support/check.h"
#include "tbrf.h"

enum { NPTS = 300 };

static double *points(int dim)
{
    double *xyz = malloc(sizeof(double) * 3 * NPTS);
    uint64_t s = 12345;
    for (int i = 0; i < dim * NPTS; i++) {
        s = s * 6364136223846793005ULL + 1442695040888963407ULL;
        xyz[i] = (double)(s >> 11) / 9007199254740992.0; /* in [0, 1) */
    }
    return xyz;
}

static tbrf_opts options(int vector, int precision)
{
    tbrf_opts o;
    tbrf_default_opts(&o);
    o.lines = 48;
    o.threads = 2;
    o.vector = vector;
    o.precision = precision;
    return o;
}

/* 1 and 3: engine LINES against a plan, points and a sub-grid. */
static void against_plan(const tbrf_model *m, int dim, int vector, int precision)
{
    const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    tbrf_opts o = options(vector, precision);
    tbrfi_engine *e = NULL;
    tbrf_plan *p = NULL;
    int st = tbrfi_engine_make(m, dim, lo, hi, 0.04, 9, &o, TBRFI_ENGINE_LINES, &e);
    REQUIRE(st == TBRF_OK, , "engine: %s", tbrfi_message_text(tbrfi_engine_msg(e)));
    REQUIRE(tbrf_make_plan(m, dim, lo, hi, 0.04, 9, &o, &p) == TBRF_OK, , "plan: %s", tbrf_plan_message(p));
    const tbrfi_engine_view *v = tbrfi_engine_view_of(e);
    const size_t vs = (precision == TBRF_FLOAT ? 4 : 8) * (size_t)v->ncomp;
    CHECK(v->ncomp == (vector ? dim : 1) && tbrfi_engine_has_lines(e), "ncomp %d", v->ncomp);
    double *xyz = points(dim);
    char *a = malloc(vs * NPTS), *b = malloc(vs * NPTS);
    const uint64_t reals[4] = {3, 5, 3, 5}; /* the second visit of each comes from the cache */
    for (int k = 0; k < 4; k++) {
        CHECK(tbrfi_engine_lines(e, reals[k]) == TBRF_OK, "lines r=%llu", (unsigned long long)reals[k]);
        CHECK(tbrfi_engine_project_points(e, NPTS, xyz, a) == TBRF_OK, "project points");
        tbrf_set_points(p, NPTS, xyz);
        CHECK(tbrf_execute(p, reals[k], b) == TBRF_OK, "execute: %s", tbrf_plan_message(p));
        CHECK(memcmp(a, b, vs * NPTS) == 0, "points %dD vector %d precision %d r=%llu differ", dim,
              vector, precision, (unsigned long long)reals[k]);
    }
    const double origin[3] = {0, 0, 0}, spacing[3] = {0.05, 0.05, 0.05};
    const int64_t n[3] = {21, 21, dim == 3 ? 21 : 1}, start[3] = {2, 4, dim == 3 ? 6 : 0},
                  count[3] = {9, 7, dim == 3 ? 5 : 1};
    grid_geom g = {{0, 0, 0}, {0.05, 0.05, dim == 3 ? 0.05 : 1.0}, {9, 7, count[2]},
                   {start[0], start[1], start[2]}, {21, 21, n[2]}};
    const int64_t cells = 9 * 7 * count[2];
    char *ga = malloc(vs * (size_t)cells), *gb = malloc(vs * (size_t)cells);
    CHECK(tbrf_set_subgrid(p, origin, spacing, n, start, count) == TBRF_OK, "subgrid: %s",
          tbrf_plan_message(p));
    CHECK(tbrf_execute(p, 5, gb) == TBRF_OK, "execute subgrid: %s", tbrf_plan_message(p));
    CHECK(tbrfi_engine_lines(e, 5) == TBRF_OK, "lines");
    /* in two pieces: a cell's value does not depend on the piece */
    CHECK(tbrfi_engine_project_grid(e, &g, 0, 20, ga) == TBRF_OK, "grid piece 1");
    CHECK(tbrfi_engine_project_grid(e, &g, 20, cells - 20, ga + vs * 20) == TBRF_OK, "grid piece 2");
    CHECK(memcmp(ga, gb, vs * (size_t)cells) == 0, "sub-grid %dD vector %d precision %d differs", dim,
          vector, precision);
    free(ga), free(gb), free(a), free(b), free(xyz);
    tbrf_destroy(p);
    tbrfi_engine_destroy(e);
}

/* 2: storage WINDOWS with the caller's lines, and whole-line windows. */
static void callers_lines(const tbrf_model *m, int dim)
{
    const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    tbrf_opts o = options(TBRF_SCALAR, TBRF_DOUBLE);
    tbrfi_engine *e = NULL, *full = NULL;
    REQUIRE(tbrfi_engine_make(m, dim, lo, hi, 0.04, 9, &o, TBRFI_ENGINE_WINDOWS, &e) == TBRF_OK, ,
            "engine: %s", tbrfi_message_text(tbrfi_engine_msg(e)));
    REQUIRE(tbrfi_engine_make(m, dim, lo, hi, 0.04, 9, &o, TBRFI_ENGINE_LINES, &full) == TBRF_OK, ,
            "engine: %s", tbrfi_message_text(tbrfi_engine_msg(full)));
    const tbrfi_engine_view *v = tbrfi_engine_view_of(e);
    CHECK(!tbrfi_engine_has_lines(e), "storage WINDOWS holds no lines");
    CHECK(tbrfi_engine_lines(e, 2) == TBRF_ERR_UNSUPPORTED, "lines without storage");
    CHECK(v->spec.M == tbrfi_engine_view_of(full)->spec.M, "the same sizing");
    const int L = v->L;
    const int64_t M = v->spec.M;
    double *axis = malloc(sizeof(double) * 4 * (size_t)L);
    double *lines = malloc(sizeof(double) * (size_t)L * (size_t)M);
    int64_t *first = calloc(3 * (size_t)L, sizeof(int64_t)), *cnt = first + L, *base = first + 2 * L;
    for (int l = 0; l < L; l++) {
        cnt[l] = M;
        base[l] = (int64_t)l * M;
    }
    tbrfi_engine_axes(e, 2, axis);
    CHECK(tbrfi_engine_windows(e, 2, first, cnt, base, TBRF_DOUBLE, lines) == TBRF_OK, "windows");
    tbrfi_engine_use_lines(e, axis, lines, 1);
    double *xyz = points(dim), *a = malloc(8 * NPTS), *b = malloc(8 * NPTS);
    CHECK(tbrfi_engine_project_points(e, NPTS, xyz, a) == TBRF_OK, "project the caller's lines");
    CHECK(tbrfi_engine_lines(full, 2) == TBRF_OK, "lines");
    CHECK(tbrfi_engine_project_points(full, NPTS, xyz, b) == TBRF_OK, "project");
    CHECK(memcmp(a, b, 8 * NPTS) == 0, "%dD: the caller's lines (whole windows) project other bits", dim);
    free(a), free(b), free(xyz), free(first), free(lines), free(axis);
    tbrfi_engine_destroy(e);
    tbrfi_engine_destroy(full);
}

/* 4: failures carry the plan's messages. */
static void failures(const tbrf_model *m)
{
    const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    tbrf_opts o = options(TBRF_SCALAR, TBRF_DOUBLE);
    o.lines = -1;
    tbrfi_engine *e = NULL;
    tbrf_plan *p = NULL;
    int st = tbrfi_engine_make(m, 3, lo, hi, 0.04, 9, &o, TBRFI_ENGINE_WINDOWS, &e);
    int pst = tbrf_make_plan(m, 3, lo, hi, 0.04, 9, &o, &p);
    REQUIRE(e != NULL, , "a failed make still gives the engine and its message");
    CHECK(st == TBRF_ERR_INVALID && pst == st, "statuses %d %d", st, pst);
    CHECK(strcmp(tbrfi_message_text(tbrfi_engine_msg(e)), tbrf_plan_message(p)) == 0,
          "messages differ: '%s' / '%s'", tbrfi_message_text(tbrfi_engine_msg(e)), tbrf_plan_message(p));
    tbrfi_engine_destroy(e);
    tbrf_destroy(p);
    st = tbrfi_engine_make(NULL, 3, lo, hi, 0.04, 9, NULL, TBRFI_ENGINE_LINES, &e);
    CHECK(st == TBRF_ERR_NULL && strstr(tbrfi_message_text(tbrfi_engine_msg(e)), "model"),
          "NULL model: %d", st);
    tbrfi_engine_destroy(e);
}

int main(void)
{
    tbrf_model *m = NULL;
    tbrf_model_gaussian(0.2, &m);
    for (int dim = 2; dim <= 3; dim++) {
        against_plan(m, dim, TBRF_SCALAR, TBRF_DOUBLE);
        against_plan(m, dim, TBRF_SCALAR, TBRF_FLOAT);
        against_plan(m, dim, TBRF_VECTOR_MIXED, TBRF_DOUBLE);
        callers_lines(m, dim);
    }
    failures(m);
    tbrf_model_destroy(m);
    return check_report("test_engine");
}
