/* test_model_input.c — the model layer's handling of its input: tables from
 * arrays and files (good and malformed), bad parameters, descriptions,
 * copies, statuses and messages. */
#define _DEFAULT_SOURCE /* mkdtemp */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/model.h"
#include "support/check.h"
#include "tbrf.h"

static int close_to(double a, double b, double rtol)
{
    return fabs(a - b) <= rtol * fabs(b);
}

static char g_dir[256];
static char g_files[32][300];
static int g_nfiles = 0;

static const char *write_file(const char *name, const char *text)
{
    char *path = g_files[g_nfiles++];
    snprintf(path, 300, "%s/%s", g_dir, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        printf("cannot write %s\n", path);
        exit(2);
    }
    fputs(text, f);
    fclose(f);
    return path;
}

/* A rejected table file: status, and a message containing `want` (the
 * file name and line, e.g. "order.txt:7:") and `what`. */
static void reject_file(const char *name, const char *text, int status, const char *where,
                        const char *what)
{
    const char *path = text ? write_file(name, text) : name;
    tbrf_model *m = (tbrf_model *)1;
    int st = tbrf_model_table_file(path, &m);
    CHECK(st == status, "%s: status %d, want %d (%s)", name, st, status, m ? tbrf_model_message(m) : "");
    CHECK(m != NULL, "%s: model object handed back", name);
    if (!m)
        return;
    CHECK(tbrf_model_status(m) == status, "%s: tbrf_model_status", name);
    const char *msg = tbrf_model_message(m);
    char want[320]; /* the message names the file as given: dir/name:line: */
    if (text)
        snprintf(want, sizeof want, "%s/%s", g_dir, where);
    else
        snprintf(want, sizeof want, "%s", where);
    CHECK(strstr(msg, want) != NULL, "%s: message \"%s\" lacks \"%s\"", name, msg, want);
    CHECK(strstr(msg, what) != NULL, "%s: message \"%s\" lacks \"%s\"", name, msg, what);
    CHECK(isnan(tbrf_model_variance(m, 3)), "%s: failed model has NaN variance", name);
    CHECK(isnan(tbrf_model_spectrum(m, 3, 1.0)), "%s: failed model has NaN spectrum", name);
    CHECK(strstr(tbrf_model_describe(m), "invalid") != NULL, "%s: describe says invalid: %s", name,
          tbrf_model_describe(m));
    tbrf_model_destroy(m);
}

static void test_table_arrays(void)
{
    /* an exact power law: log-log interpolation reproduces it between knots */
    double k[9], p[9];
    for (int i = 0; i < 9; i++) {
        k[i] = 0.1 * pow(2.0, i);
        p[i] = 3.0 * pow(k[i], -2.5);
    }
    tbrf_model *t, *pl;
    CHECK(tbrf_model_table(9, k, p, &t) == TBRF_OK, "power-law table: %s", tbrf_model_message(t));
    CHECK(strcmp(tbrf_model_describe(t), "table rows=9 variance=1") == 0, "describe: %s",
          tbrf_model_describe(t));
    tbrf_model_set_amplitude(t, 1.0);
    for (double x = 0.1; x <= 25.6; x *= 1.0717) {
        double got = tbrf_model_spectrum(t, 3, x), want = 3.0 * pow(x, -2.5);
        CHECK(close_to(got, want, 1e-13), "log-log interpolation at k=%g: %.17g vs %.17g", x, got, want);
    }
    CHECK(tbrf_model_spectrum(t, 3, 0.0999) == 0.0, "zero below k[0]");
    CHECK(tbrf_model_spectrum(t, 3, 25.61) == 0.0, "zero above k[n-1]");
    CHECK(tbrf_model_spectrum(t, 3, k[8]) == p[8], "exact at the last knot");
    /* its variance and line integrals equal the power law's (closed form) */
    tbrf_model_powerlaw(-2.5, 0.1, 25.6, &pl);
    tbrf_model_set_amplitude(pl, 3.0);
    for (int dim = 2; dim <= 3; dim++) {
        CHECK(close_to(tbrf_model_variance(t, dim), tbrf_model_variance(pl, dim), 1e-13),
              "%dD table variance %.17g = power law %.17g", dim, tbrf_model_variance(t, dim),
              tbrf_model_variance(pl, dim));
        static const double ab[][2] = {{0, 0.15}, {0.3, 0.3001}, {0.7, 13}, {1.59, 1.61}, {20, 40}};
        for (int j = 0; j < 5; j++) {
            double a = ab[j][0], b = ab[j][1];
            double x = tbrfi_model_integrate_line_spectrum(t, dim, a, b);
            double y = tbrfi_model_integrate_line_spectrum(pl, dim, a, b);
            CHECK(close_to(x, y, 1e-12), "%dD table line integral [%g,%g] %.17g = power law %.17g",
                  dim, a, b, x, y);
        }
        CHECK(close_to(tbrf_model_covariance(t, dim, 0.7), tbrf_model_covariance(pl, dim, 0.7), 1e-11),
              "%dD table covariance = power law", dim);
    }
    tbrf_model_destroy(pl);

    /* deep copy: the original's arrays go away */
    tbrf_model *c = tbrfi_model_copy(t);
    CHECK(c && c->k != t->k, "copy owns its table");
    tbrf_model_destroy(t);
    CHECK(c && close_to(tbrf_model_spectrum(c, 3, 1.0), 3.0, 1e-13), "copy works after destroy");
    tbrf_model_destroy(c);

    /* linear interpolation where an end value is zero */
    double k2[] = {1, 2, 3, 4}, p2[] = {1, 0, 2, 2};
    tbrf_model_table(4, k2, p2, &t);
    tbrf_model_set_amplitude(t, 1.0);
    CHECK(close_to(tbrf_model_spectrum(t, 3, 1.25), 0.75, 1e-15), "linear towards a zero");
    CHECK(close_to(tbrf_model_spectrum(t, 3, 2.5), 1.0, 1e-15), "linear from a zero");
    CHECK(close_to(tbrf_model_spectrum(t, 3, 3.5), 2.0, 1e-15), "flat segment");
    /* 3D line integral over [1,2]: (1/2pi)∫k^2 (2 - k) dk = (1/2pi)(14/3 - 15/4) */
    CHECK(close_to(tbrfi_model_integrate_line_spectrum(t, 3, 0, 2), (14.0 / 3 - 15.0 / 4) / (2 * M_PI), 1e-14),
          "exact line integral on a linear segment");
    CHECK(close_to(tbrfi_model_correlation_scale(t), 2 * M_PI, 1e-15), "table correlation scale 2pi/k0");
    tbrf_model_destroy(t);

    /* rejects */
    double kb[] = {1, 2, 2, 3}, pb[] = {1, 1, 1, 1};
    int st = tbrf_model_table(4, kb, pb, &t);
    CHECK(st == TBRF_ERR_TABLE && t, "non-increasing k rejected");
    CHECK(t && strstr(tbrf_model_message(t), "row 2") && strstr(tbrf_model_message(t), "k=2"),
          "message names the row: %s", tbrf_model_message(t));
    tbrf_model_destroy(t);
    double pn[] = {1, -1, 1, 1}, kg[] = {1, 2, 3, 4};
    st = tbrf_model_table(4, kg, pn, &t);
    CHECK(st == TBRF_ERR_TABLE && strstr(tbrf_model_message(t), "negative"), "negative P: %s",
          tbrf_model_message(t));
    tbrf_model_destroy(t);
    double pnan[] = {1, 1, NAN, 1};
    st = tbrf_model_table(4, kg, pnan, &t);
    CHECK(st == TBRF_ERR_TABLE && strstr(tbrf_model_message(t), "row 2"), "NaN P: %s",
          tbrf_model_message(t));
    tbrf_model_destroy(t);
    double kz[] = {0, 1};
    st = tbrf_model_table(2, kz, pb, &t);
    CHECK(st == TBRF_ERR_TABLE && strstr(tbrf_model_message(t), "not positive"), "k=0: %s",
          tbrf_model_message(t));
    tbrf_model_destroy(t);
    st = tbrf_model_table(1, kg, pb, &t);
    CHECK(st == TBRF_ERR_TABLE && t, "n=1 rejected");
    tbrf_model_destroy(t);
    st = tbrf_model_table(4, NULL, pb, &t);
    CHECK(st == TBRF_ERR_NULL && t && tbrf_model_status(t) == TBRF_ERR_NULL, "NULL k array");
    tbrf_model_destroy(t);
    CHECK(tbrf_model_table(4, kg, pb, NULL) == TBRF_ERR_NULL, "NULL out pointer");
}

static void test_table_files(void)
{
    const char *good = write_file("good.txt", "# a CAMB-like table\n"
                                              "\n"
                                              "   # indented comment\n"
                                              "0.1   2.0   # trailing comment\n"
                                              "\t0.2\t4e-1\r\n"
                                              "\n"
                                              "0.4 0.1\n"
                                              "8e-1 0.025");
    tbrf_model *m;
    int st = tbrf_model_table_file(good, &m);
    CHECK(st == TBRF_OK, "good file: %d %s", st, tbrf_model_message(m));
    if (st == TBRF_OK) {
        CHECK(m->n == 4 && m->k[1] == 0.2 && m->p[1] == 0.4 && m->k[3] == 0.8, "good file rows");
        char want[400];
        snprintf(want, sizeof want, "table file=%s rows=4 variance=1", good);
        CHECK(strcmp(tbrf_model_describe(m), want) == 0, "describe: %s", tbrf_model_describe(m));
        tbrf_model_set_variance(m, 2.5);
        snprintf(want, sizeof want, "table file=%s rows=4 variance=2.5", good);
        CHECK(strcmp(tbrf_model_describe(m), want) == 0, "describe after set_variance: %s",
              tbrf_model_describe(m));
        tbrf_model_set_amplitude(m, 0.125);
        snprintf(want, sizeof want, "table file=%s rows=4 amplitude=0.125", good);
        CHECK(strcmp(tbrf_model_describe(m), want) == 0, "describe after set_amplitude: %s",
              tbrf_model_describe(m));
        CHECK(strcmp(tbrf_model_message(m), "") == 0, "no message on success");
    }
    tbrf_model_destroy(m);

    reject_file("order.txt", "# k P\n0.1 1\n0.2 1\n\n# gap\n0.4 1\n0.3 1\n0.5 1\n", TBRF_ERR_TABLE,
                "order.txt:7:", "k=0.3 is not greater than the previous k=0.4");
    reject_file("equal.txt", "0.1 1\n0.1 2\n", TBRF_ERR_TABLE, "equal.txt:2:", "not greater");
    reject_file("negp.txt", "0.1 1\n0.2 -3\n", TBRF_ERR_TABLE, "negp.txt:2:", "P=-3 is negative");
    reject_file("nanp.txt", "0.1 1\n0.2 nan\n0.3 1\n", TBRF_ERR_TABLE, "nanp.txt:2:", "not finite");
    reject_file("infk.txt", "0.1 1\ninf 1\n", TBRF_ERR_TABLE, "infk.txt:2:", "not finite");
    reject_file("text.txt", "0.1 1\n0.2 abc\n", TBRF_ERR_TABLE, "text.txt:2:", "\"abc\" is not a number");
    reject_file("junk.txt", "0.1 1\n0.2x 1\n", TBRF_ERR_TABLE, "junk.txt:2:", "not a number");
    reject_file("one.txt", "0.1 1\n0.2\n0.3 1\n", TBRF_ERR_TABLE, "one.txt:2:", "found one");
    reject_file("three.txt", "0.1 1 5\n", TBRF_ERR_TABLE, "three.txt:1:", "more than two");
    reject_file("zero.txt", "0 1\n0.2 1\n", TBRF_ERR_TABLE, "zero.txt:1:", "not positive");
    reject_file("empty.txt", "", TBRF_ERR_TABLE, "empty.txt", "no data rows");
    reject_file("comments.txt", "# nothing\n\n   \n", TBRF_ERR_TABLE, "comments.txt", "no data rows");
    reject_file("single.txt", "# one row\n0.5 1\n", TBRF_ERR_TABLE, "single.txt", "only 1 data row");
    char missing[300];
    snprintf(missing, sizeof missing, "%s/does-not-exist.txt", g_dir);
    reject_file(missing, NULL, TBRF_ERR_FILE, "does-not-exist.txt", "cannot open");

    st = tbrf_model_table_file(NULL, &m);
    CHECK(st == TBRF_ERR_NULL && m, "NULL path");
    tbrf_model_destroy(m);
    CHECK(tbrf_model_table_file(good, NULL) == TBRF_ERR_NULL, "NULL out pointer");
}

static double one(double k, int dim, void *u)
{
    (void)k;
    (void)dim;
    (void)u;
    return 1.0;
}

/* A constructor call that must fail with `status` and a message
 * containing `what`. */
static void reject(const char *name, int st, tbrf_model *m, int status, const char *what)
{
    CHECK(st == status, "%s: status %d want %d", name, st, status);
    CHECK(m != NULL, "%s: object handed back", name);
    if (!m)
        return;
    CHECK(tbrf_model_status(m) == status, "%s: model status", name);
    CHECK(strstr(tbrf_model_message(m), what) != NULL, "%s: message \"%s\" lacks \"%s\"", name,
          tbrf_model_message(m), what);
    CHECK(isnan(tbrf_model_covariance(m, 3, 0.0)) && isnan(tbrfi_model_amplitude(m, 2)) &&
              isnan(tbrfi_model_integrate_line_spectrum(m, 3, 0, 1)) && isnan(tbrfi_model_line_spectrum(m, 3, 1)),
          "%s: failed model answers NaN", name);
    CHECK(tbrf_model_set_variance(m, 2.0) == status, "%s: set_variance on a failed model", name);
    tbrf_model_destroy(m);
}

static void test_bad_parameters(void)
{
    tbrf_model *m;
    int st;
    static const double bad_len[] = {NAN, -1.0, 0.0, INFINITY};
    for (int i = 0; i < 4; i++) {
        st = tbrf_model_gaussian(bad_len[i], &m);
        reject("gaussian length", st, m, TBRF_ERR_INVALID, "length=");
        st = tbrf_model_exponential(bad_len[i], &m);
        reject("exponential length", st, m, TBRF_ERR_INVALID, "length=");
        st = tbrf_model_vonkarman(bad_len[i], &m);
        reject("vonkarman length", st, m, TBRF_ERR_INVALID, "length=");
        st = tbrf_model_matern(bad_len[i], 1.0, &m);
        reject("matern length", st, m, TBRF_ERR_INVALID, "length=");
    }
    st = tbrf_model_gaussian(-2.5, &m);
    reject("gaussian length value", st, m, TBRF_ERR_INVALID, "gaussian: length=-2.5");
    st = tbrf_model_matern(1.0, 0.0, &m);
    reject("matern nu=0", st, m, TBRF_ERR_INVALID, "nu=0");
    st = tbrf_model_matern(1.0, -0.5, &m);
    reject("matern nu<0", st, m, TBRF_ERR_INVALID, "nu=-0.5");
    st = tbrf_model_matern(1.0, NAN, &m);
    reject("matern nu NaN", st, m, TBRF_ERR_INVALID, "nu=nan");
    st = tbrf_model_matern(1.0, 50.5, &m);
    reject("matern nu>50", st, m, TBRF_ERR_INVALID, "nu=50.5");
    st = tbrf_model_powerlaw(-3, 2.0, 2.0, &m);
    reject("powerlaw kmin=kmax", st, m, TBRF_ERR_INVALID, "kmax=2 must be greater than kmin=2");
    st = tbrf_model_powerlaw(-3, 3.0, 2.0, &m);
    reject("powerlaw kmin>kmax", st, m, TBRF_ERR_INVALID, "kmin=3");
    st = tbrf_model_powerlaw(-3, 0.1, INFINITY, &m);
    reject("powerlaw kmax inf", st, m, TBRF_ERR_INVALID, "kmax=inf");
    st = tbrf_model_powerlaw(-3, -0.1, 1.0, &m);
    reject("powerlaw kmin<0", st, m, TBRF_ERR_INVALID, "kmin=-0.1");
    st = tbrf_model_powerlaw(NAN, 0.1, 1.0, &m);
    reject("powerlaw index NaN", st, m, TBRF_ERR_INVALID, "index=nan");
    st = tbrf_model_powerlaw(-3, NAN, 1.0, &m);
    reject("powerlaw kmin NaN", st, m, TBRF_ERR_INVALID, "kmin=nan");
    st = tbrf_model_callback(NULL, NULL, 0.0, 1.0, &m);
    reject("callback NULL fn", st, m, TBRF_ERR_NULL, "NULL");
    st = tbrf_model_callback(one, NULL, 1.0, 0.5, &m);
    reject("callback kmin>kmax", st, m, TBRF_ERR_INVALID, "kmax=0.5");
    st = tbrf_model_callback(one, NULL, 0.0, INFINITY, &m);
    reject("callback kmax inf", st, m, TBRF_ERR_INVALID, "kmax=inf");

    CHECK(tbrf_model_powerlaw(-3, 0.1, 1, NULL) == TBRF_ERR_NULL, "powerlaw NULL out");
    CHECK(tbrf_model_gaussian(1, NULL) == TBRF_ERR_NULL, "gaussian NULL out");
    CHECK(tbrf_model_exponential(1, NULL) == TBRF_ERR_NULL, "exponential NULL out");
    CHECK(tbrf_model_matern(1, 1, NULL) == TBRF_ERR_NULL, "matern NULL out");
    CHECK(tbrf_model_vonkarman(1, NULL) == TBRF_ERR_NULL, "vonkarman NULL out");
    CHECK(tbrf_model_callback(one, NULL, 0, 1, NULL) == TBRF_ERR_NULL, "callback NULL out");

    /* set_variance / set_amplitude */
    tbrf_model_gaussian(1.0, &m);
    static const double bad_v[] = {NAN, 0.0, -1.0, INFINITY};
    for (int i = 0; i < 4; i++) {
        CHECK(tbrf_model_set_variance(m, bad_v[i]) == TBRF_ERR_INVALID, "set_variance(%g)", bad_v[i]);
        CHECK(strstr(tbrf_model_message(m), "variance="), "set_variance message: %s",
              tbrf_model_message(m));
        CHECK(tbrf_model_set_amplitude(m, bad_v[i]) == TBRF_ERR_INVALID, "set_amplitude(%g)", bad_v[i]);
        CHECK(strstr(tbrf_model_message(m), "amplitude="), "set_amplitude message: %s",
              tbrf_model_message(m));
    }
    CHECK(tbrf_model_status(m) == TBRF_OK, "a bad set_variance leaves the model usable");
    CHECK(tbrf_model_variance(m, 3) == 1.0, "default variance 1 kept");
    CHECK(strcmp(tbrf_model_describe(m), "gaussian length=1 variance=1") == 0, "describe kept: %s",
          tbrf_model_describe(m));
    tbrf_model_destroy(m);
    CHECK(tbrf_model_set_variance(NULL, 1.0) == TBRF_ERR_NULL, "set_variance(NULL)");
    CHECK(tbrf_model_set_amplitude(NULL, 1.0) == TBRF_ERR_NULL, "set_amplitude(NULL)");
    CHECK(tbrf_model_status(NULL) == TBRF_ERR_NULL, "status(NULL)");
    CHECK(tbrf_model_message(NULL) != NULL && tbrf_model_describe(NULL) != NULL, "NULL strings");
    CHECK(isnan(tbrf_model_variance(NULL, 3)), "variance(NULL)");
    tbrf_model_destroy(NULL);
}

static void test_describe(void)
{
    tbrf_model *m;
    struct { int st; tbrf_model *m; const char *want; } cases[8];
    int n = 0;
    cases[n].st = tbrf_model_powerlaw(-3, 0.05, 3, &cases[n].m);
    cases[n++].want = "powerlaw index=-3 kmin=0.05 kmax=3 variance=1";
    cases[n].st = tbrf_model_gaussian(2, &cases[n].m);
    tbrf_model_set_amplitude(cases[n].m, 1.5);
    cases[n++].want = "gaussian length=2 amplitude=1.5";
    cases[n].st = tbrf_model_exponential(0.1, &cases[n].m);
    cases[n++].want = "exponential length=0.1 variance=1";
    cases[n].st = tbrf_model_matern(1, 1.5, &cases[n].m);
    cases[n++].want = "matern length=1 nu=1.5 variance=1";
    cases[n].st = tbrf_model_vonkarman(1.0 / 3.0, &cases[n].m);
    tbrf_model_set_variance(cases[n].m, 4);
    cases[n++].want = "vonkarman length=0.3333333333333333 variance=4";
    cases[n].st = tbrf_model_callback(one, NULL, 0, 10, &cases[n].m);
    cases[n++].want = "callback kmin=0 kmax=10 variance=1";
    for (int i = 0; i < n; i++) {
        CHECK(cases[i].st == TBRF_OK, "describe case %d constructed", i);
        CHECK(strcmp(tbrf_model_describe(cases[i].m), cases[i].want) == 0, "describe \"%s\" want \"%s\"",
              tbrf_model_describe(cases[i].m), cases[i].want);
        CHECK(strcmp(tbrf_model_message(cases[i].m), "") == 0, "empty message");
        tbrf_model *c = tbrfi_model_copy(cases[i].m);
        CHECK(c && strcmp(tbrf_model_describe(c), cases[i].want) == 0, "copy describes the same");
        tbrf_model_destroy(c);
    }
    /* correlation scales */
    CHECK(close_to(tbrfi_model_correlation_scale(cases[0].m), 2 * M_PI / 0.05, 1e-15), "powerlaw scale");
    CHECK(close_to(tbrfi_model_correlation_scale(cases[1].m), 6, 1e-15), "gaussian scale");
    CHECK(close_to(tbrfi_model_correlation_scale(cases[2].m), 0.8, 1e-15), "exponential scale");
    CHECK(close_to(tbrfi_model_correlation_scale(cases[3].m), 8 + 2 * sqrt(3.0), 1e-15), "matern scale");
    CHECK(tbrfi_model_correlation_scale(cases[5].m) == 0.0, "callback kmin=0 scale");
    for (int i = 0; i < n; i++) {
        CHECK(tbrfi_model_is_covariance(cases[i].m) == (i >= 1 && i <= 4), "tbrfi_model_is_covariance %d", i);
        tbrf_model_destroy(cases[i].m);
    }
    /* describe keeps up with set_variance */
    tbrf_model_powerlaw(-11.0 / 3.0, 0.5, 30, &m);
    tbrf_model_set_variance(m, 0.01);
    CHECK(strcmp(tbrf_model_describe(m), "powerlaw index=-3.6666666666666665 kmin=0.5 kmax=30 variance=0.01") == 0,
          "describe %s", tbrf_model_describe(m));
    tbrf_model_destroy(m);
}

/* Two models that must be the same: description and values, bit for bit. */
static void same_model(const char *what, tbrf_model *a, tbrf_model *b)
{
    CHECK(strcmp(tbrf_model_describe(a), tbrf_model_describe(b)) == 0, "%s: \"%s\" vs \"%s\"",
          what, tbrf_model_describe(a), tbrf_model_describe(b));
    for (int dim = 2; dim <= 3; dim++) {
        const double va = tbrf_model_variance(a, dim), vb = tbrf_model_variance(b, dim);
        CHECK(memcmp(&va, &vb, sizeof va) == 0, "%s: %dD variance %.17g vs %.17g", what, dim, va, vb);
        for (double k = 0.07; k < 40; k *= 1.9) {
            const double pa = tbrf_model_spectrum(a, dim, k), pb = tbrf_model_spectrum(b, dim, k);
            CHECK(memcmp(&pa, &pb, sizeof pa) == 0, "%s: %dD P(%g)", what, dim, k);
        }
        const double ca = tbrf_model_covariance(a, dim, 0.3), cb = tbrf_model_covariance(b, dim, 0.3);
        CHECK(memcmp(&ca, &cb, sizeof ca) == 0, "%s: %dD C(0.3)", what, dim);
    }
}

/* The table of model kinds: names, parameters, tbrf_model_make (the same
 * model as each kind's constructor), its refusals, the tail slopes and
 * the frequency range (tbrfi_model_support). */
static void test_kinds(void)
{
    /* The kinds the table lists, however many: each named once, each with
     * its parameters; these among them (files record them by name). */
    static const char *names[] = {"powerlaw", "gaussian", "exponential", "matern", "vonkarman",
                                  "table", "band", "parabola", "stable", "rational"};
    int n = 0, takes = 0, needs = 0;
    while (tbrf_model_kind_name(n))
        n++;
    for (int i = 0; i < n; i++) {
        const char *k = tbrf_model_kind_name(i);
        CHECK(tbrf_model_kind_params(k, &takes, &needs) == TBRF_OK && (takes & needs) == needs,
              "kind %d (%s): its parameters", i, k);
        for (int j = 0; j < i; j++)
            CHECK(strcmp(k, tbrf_model_kind_name(j)) != 0, "kind %s listed twice", k);
        CHECK(strcmp(k, "callback") != 0, "the callback is not listed");
    }
    for (size_t j = 0; j < sizeof names / sizeof names[0]; j++) {
        int found = 0;
        for (int i = 0; i < n; i++)
            found |= strcmp(tbrf_model_kind_name(i), names[j]) == 0;
        CHECK(found, "kind %s listed", names[j]);
    }
    CHECK(tbrf_model_kind_name(-1) == NULL, "no kind -1");
    /* parameter names: bit 1 << i is tbrf_model_param_name(i) */
    static const struct { int bit; const char *name; } PN[] = {
        {TBRF_PARAM_INDEX, "index"}, {TBRF_PARAM_KMIN, "kmin"}, {TBRF_PARAM_KMAX, "kmax"},
        {TBRF_PARAM_LENGTH, "length"}, {TBRF_PARAM_NU, "nu"}, {TBRF_PARAM_TABLE, "table"},
        {TBRF_PARAM_ALPHA, "alpha"}};
    for (size_t j = 0; j < sizeof PN / sizeof PN[0]; j++) {
        int i = 0;
        while ((1 << i) != PN[j].bit)
            i++;
        CHECK(tbrf_model_param_name(i) && strcmp(tbrf_model_param_name(i), PN[j].name) == 0,
              "parameter %d is %s", i, PN[j].name);
    }
    CHECK(tbrf_model_param_name(-1) == NULL, "no parameter -1");
    CHECK(tbrf_model_kind_params("matern", &takes, &needs) == TBRF_OK &&
              takes == (TBRF_PARAM_LENGTH | TBRF_PARAM_NU | TBRF_PARAM_KMIN | TBRF_PARAM_KMAX) &&
              needs == (TBRF_PARAM_LENGTH | TBRF_PARAM_NU),
          "matern takes length, nu, kmin, kmax and needs length, nu (%d, %d)", takes, needs);
    CHECK(tbrf_model_kind_params("powerlaw", &takes, &needs) == TBRF_OK &&
              needs == (TBRF_PARAM_INDEX | TBRF_PARAM_KMAX), "powerlaw needs index, kmax");
    CHECK(tbrf_model_kind_params("callback", &takes, &needs) == TBRF_ERR_INVALID,
          "the callback is not made by name");
    CHECK(tbrf_model_kind_params(NULL, &takes, &needs) == TBRF_ERR_NULL, "NULL kind");

    const double X = NAN;
    tbrf_model *a, *b;
    tbrf_model_make("powerlaw", -3, 0.05, 3, X, X, &a);
    tbrf_model_powerlaw(-3, 0.05, 3, &b);
    same_model("powerlaw", a, b);
    tbrf_model_destroy(a), tbrf_model_destroy(b);
    tbrf_model_make("gaussian", X, X, X, 2, X, &a);
    tbrf_model_gaussian(2, &b);
    same_model("gaussian", a, b);
    tbrf_model_destroy(a), tbrf_model_destroy(b);
    tbrf_model_make("exponential", X, X, X, 0.5, X, &a);
    tbrf_model_exponential(0.5, &b);
    same_model("exponential", a, b);
    tbrf_model_destroy(a), tbrf_model_destroy(b);
    tbrf_model_make("matern", X, X, X, 1, 1.5, &a);
    tbrf_model_matern(1, 1.5, &b);
    same_model("matern", a, b);
    tbrf_model_destroy(a), tbrf_model_destroy(b);
    tbrf_model_make("vonkarman", X, X, X, 1, X, &a);
    tbrf_model_vonkarman(1, &b);
    same_model("vonkarman", a, b);
    tbrf_model_destroy(a), tbrf_model_destroy(b);
    tbrf_model_make("band", X, X, 3, X, X, &a);
    tbrf_model_band(0, 3, &b);
    same_model("band", a, b);
    tbrf_model_destroy(a), tbrf_model_destroy(b);
    tbrf_model_make("parabola", X, 0.5, 3, X, X, &a);
    tbrf_model_parabola(0.5, 3, &b);
    same_model("parabola", a, b);
    tbrf_model_destroy(a), tbrf_model_destroy(b);
    /* kmin alone on a covariance model: a band open above */
    CHECK(tbrf_model_make("gaussian", X, 0.1, X, 2, X, &a) == TBRF_OK, "gaussian band made");
    tbrf_model_gaussian(2, &b);
    tbrf_model_set_band(b, 0.1, INFINITY);
    same_model("gaussian band", a, b);
    double lo, hi;
    tbrfi_model_support(a, &lo, &hi);
    CHECK(lo == 0.1 && isinf(hi), "banded gaussian range [%g, %g]", lo, hi);
    tbrf_model_destroy(a), tbrf_model_destroy(b);

    /* refusals name the kind and the parameter; the model comes back */
    static const struct { const char *kind; double par[5]; int st; const char *msg; } bad[] = {
        {"gaussian", {X, X, X, 1, 0.5}, TBRF_ERR_INVALID, "gaussian: takes no nu"},
        {"matern", {X, X, X, 1, X}, TBRF_ERR_INVALID, "matern: needs the nu"},
        {"powerlaw", {-3, X, X, X, X}, TBRF_ERR_INVALID, "powerlaw: needs the kmax"},
        {"table", {X, X, X, X, X}, TBRF_ERR_INVALID, "tbrf_model_table"},
        {"cubic", {X, X, X, 1, X}, TBRF_ERR_INVALID, "unknown kind 'cubic'"},
        {"matern", {X, X, X, 1, 60}, TBRF_ERR_INVALID, "nu=60"},
        {"gaussian", {X, 1e300, X, 1, X}, TBRF_ERR_INVALID, "set_band"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const double *p = bad[i].par;
        int st = tbrf_model_make(bad[i].kind, p[0], p[1], p[2], p[3], p[4], &a);
        CHECK(st == bad[i].st && a && tbrf_model_status(a) == st, "refusal %zu: status %d", i, st);
        CHECK(a && strstr(tbrf_model_message(a), bad[i].msg), "refusal %zu: \"%s\" lacks \"%s\"", i,
              a ? tbrf_model_message(a) : "", bad[i].msg);
        CHECK(a && isnan(tbrf_model_variance(a, 3)), "refusal %zu: unusable", i);
        tbrf_model_destroy(a);
    }
    CHECK(tbrf_model_make("gaussian", X, X, X, 1, X, NULL) == TBRF_ERR_NULL, "NULL out");

    /* tail slopes */
    tbrf_model_powerlaw(-2.5, 0.1, 3, &a);
    CHECK(tbrf_model_tail_slope(a, 3) == -2.5, "powerlaw slope is its index");
    tbrfi_model_support(a, &lo, &hi);
    CHECK(lo == 0.1 && hi == 3, "powerlaw range");
    tbrf_model_destroy(a);
    tbrf_model_exponential(1, &a);
    CHECK(tbrf_model_tail_slope(a, 3) == -4 && tbrf_model_tail_slope(a, 2) == -3, "exponential slope");
    tbrfi_model_support(a, &lo, &hi);
    CHECK(lo == 0 && isinf(hi), "covariance model range [0, inf]");
    tbrf_model_destroy(a);
    tbrf_model_matern(1, 1.5, &a);
    CHECK(tbrf_model_tail_slope(a, 3) == -6, "matern slope -(2 nu + d)");
    CHECK(isnan(tbrf_model_tail_slope(a, 4)), "bad dim");
    tbrf_model_destroy(a);
    tbrf_model_vonkarman(1, &a);
    CHECK(fabs(tbrf_model_tail_slope(a, 3) + 11.0 / 3.0) < 1e-15, "von Karman -11/3");
    tbrf_model_destroy(a);
    tbrf_model_band(0, 3, &a);
    CHECK(tbrf_model_tail_slope(a, 3) == -2, "band 1 - d");
    tbrf_model_destroy(a);
    tbrf_model_gaussian(1, &a);
    CHECK(isnan(tbrf_model_tail_slope(a, 3)), "gaussian: no tail slope");
    tbrf_model_destroy(a);
    const double tk[] = {0.5, 1, 4}, tp[] = {1, 2, 1};
    tbrf_model_table(3, tk, tp, &a);
    tbrfi_model_support(a, &lo, &hi);
    CHECK(lo == 0.5 && hi == 4, "table range is its knots");
    tbrf_model_set_band(a, 0.7, 100);
    tbrfi_model_support(a, &lo, &hi);
    CHECK(lo == 0.7 && hi == 4, "banded table range [%g, %g]", lo, hi);
    tbrf_model_destroy(a);
}

/* c ∫_lo^hi k^(d-1) P(k) dk by the trapezoid rule in ln k (2e4 steps, ln
 * k spaced 2e-3 over 16 decades: the rule's error on these smooth
 * integrands is far below the 1e-4 asked, and a numerical spectrum costs
 * a quadrature per call): the variance between lo and hi, from the
 * public spectrum alone. */
static double spectrum_variance(const tbrf_model *m, int dim, double lo, double hi)
{
    const int n = 20000;
    const double a = log(lo), b = log(hi), h = (b - a) / n;
    double sum = 0.0;
    for (int i = 0; i <= n; i++) {
        const double k = exp(a + h * i), w = (i == 0 || i == n) ? 0.5 : 1.0;
        sum += w * h * pow(k, dim) * tbrf_model_spectrum(m, dim, k);
    }
    return (dim == 3 ? 1.0 / (2.0 * M_PI * M_PI) : 1.0 / (2.0 * M_PI)) * sum;
}

/* A test value of each shape parameter a covariance kind may need: a
 * new parameter without one here fails the test (NAN: none). */
static double shape_value(const char *name)
{
    return strcmp(name, "nu") == 0 ? 1.5 : strcmp(name, "alpha") == 0 ? 1.5 : NAN;
}

/* The kind with length 1 and the test values of the shape parameters it
 * needs, cut to [0, kcut] when kcut > 0, by name (tbrf_model_make_params). */
static tbrf_model *make_test_kind(const char *kind, int needs, double kcut)
{
    const char *names[16];
    double values[16];
    int n = 0;
    for (int i = 0; tbrf_model_param_name(i) && n < 14; i++) {
        const char *p = tbrf_model_param_name(i);
        if (!(needs & (1 << i)) || strcmp(p, "length") == 0)
            continue;
        CHECK(!isnan(shape_value(p)), "%s: no test value for its parameter %s", kind, p);
        names[n] = p, values[n++] = shape_value(p);
    }
    names[n] = "length", values[n++] = 1.0;
    if (kcut > 0)
        names[n] = "kmin", values[n++] = 0.0, names[n] = "kmax", values[n++] = kcut;
    tbrf_model *m = NULL;
    CHECK(tbrf_model_make_params(kind, n, names, values, &m) == TBRF_OK, "%s made: %s", kind,
          m ? tbrf_model_message(m) : "");
    return m;
}

/* (1/pi) ∫_0^K P1(kappa) cos(kappa s) dkappa by the trapezoid rule on the
 * n + 1 samples p1[i] = P1(i K/n): the 3D line covariance from the line
 * spectrum alone. */
static double line_covariance_quad(const double *p1, double s, double K, int n)
{
    const double h = K / n;
    double sum = 0.0;
    for (int i = 0; i <= n; i++)
        sum += ((i == 0 || i == n) ? 0.5 : 1.0) * h * p1[i] * cos(h * i * s);
    return sum / M_PI;
}

/* Every covariance kind of the table, whatever it is: it has its
 * covariance and its line covariance (a kind without one fails here);
 * its spectrum integrates to its variance; its covariance is the Hankel
 * transform of its spectrum (the same model cut far up, where the library
 * transforms numerically); its 3D line covariance is the cosine transform
 * of its line spectrum. A new covariance kind is checked here without a
 * line of test code. */
static void test_covariance_kinds(void)
{
    int checked = 0;
    for (int i = 0; tbrf_model_kind_name(i); i++) {
        const char *kind = tbrf_model_kind_name(i);
        int takes, needs;
        tbrf_model_kind_params(kind, &takes, &needs);
        if (!(needs & TBRF_PARAM_LENGTH))
            continue;
        const double kcut = 1e4;
        tbrf_model *m = make_test_kind(kind, needs, 0.0), *cut = make_test_kind(kind, needs, kcut);
        if (!m || !cut)
            continue;
        CHECK(tbrfi_model_is_covariance(m), "%s: a covariance kind", kind);
        CHECK(tbrfi_model_has_line_covariance(m), "%s: has its line covariance", kind);
        CHECK(isfinite(tbrf_model_covariance(m, 3, 0.5)) && tbrf_model_covariance(m, 3, 0.0) == 1.0,
              "%s: has its covariance (C(0) = %g)", kind, tbrf_model_covariance(m, 3, 0.0));
        for (int dim = 2; dim <= 3; dim++) {
            /* [1e-6, 1e10]: what lies outside is below 1e-6 of the
             * variance for a spectrum falling at least as k^-(d+2/3) */
            const double v = spectrum_variance(m, dim, 1e-6, 1e10);
            CHECK(fabs(v - 1.0) < 1e-4, "%s %dD: spectrum integrates to %.7f, want 1", kind, dim, v);
            /* The cut drops the variance eps above kcut, which moves the
             * normalised covariance C(r)/C(0) by at most 2 eps. */
            const double eps = spectrum_variance(m, dim, kcut, 1e10);
            for (double r = 0.25; r < 4; r *= 2) {
                const double c = tbrf_model_covariance(m, dim, r);
                const double h = tbrf_model_covariance(cut, dim, r) / tbrf_model_covariance(cut, dim, 0);
                CHECK(fabs(c - h) < 2 * eps + 1e-5, "%s %dD: C(%g) = %.7f closed form, %.7f "
                      "transformed (eps %.2g)", kind, dim, r, c, h, eps);
            }
        }
        /* Truncating at K leaves at most tail = (1/pi) ∫_K^inf P1; the
         * trapezoid's own error at h = 0.005 is below 1e-6 here. */
        enum { NQ = 20000 };
        static double p1[NQ + 1];
        const double K = 100.0, tail = tbrfi_model_integrate_line_spectrum(m, 3, K, 1e12) / M_PI;
        for (int j = 0; j <= NQ; j++)
            p1[j] = tbrfi_model_line_spectrum(m, 3, K * j / NQ);
        for (double s = 0.0; s < 4; s = s ? 2 * s : 0.25) {
            const double c1 = tbrfi_model_line_covariance3(m, s), q = line_covariance_quad(p1, s, K, NQ);
            CHECK(fabs(c1 - q) < tail + 1e-5, "%s: C1(%g) = %.7f closed form, %.7f from the line "
                  "spectrum (tail %.2g)", kind, s, c1, q, tail);
        }
        tbrf_model_destroy(m);
        tbrf_model_destroy(cut);
        checked++;
    }
    CHECK(checked >= 6, "%d covariance kinds checked", checked);
}

/* tbrf_model_make_params: the same model as tbrf_model_make, names in
 * any order, NaN as not given; unknown or repeated names refused with the
 * list; alpha only through it. */
static void test_make_params(void)
{
    tbrf_model *a, *b;
    const char *n1[] = {"nu", "length"};
    const double v1[] = {1.5, 2.0};
    CHECK(tbrf_model_make_params("matern", 2, n1, v1, &a) == TBRF_OK, "matern by name");
    tbrf_model_make("matern", NAN, NAN, NAN, 2.0, 1.5, &b);
    same_model("matern by name", a, b);
    tbrf_model_destroy(a), tbrf_model_destroy(b);
    const char *n2[] = {"kmax", "index", "kmin"};
    const double v2[] = {3.0, -3.0, NAN};
    CHECK(tbrf_model_make_params("powerlaw", 3, n2, v2, &a) == TBRF_OK, "powerlaw by name");
    tbrf_model_powerlaw(-3, 0, 3, &b);
    same_model("powerlaw by name (kmin NaN: not given)", a, b);
    tbrf_model_destroy(a), tbrf_model_destroy(b);
    const char *n3[] = {"length", "alpha"};
    const double v3[] = {1.0, 1.0};
    CHECK(tbrf_model_make_params("rational", 2, n3, v3, &a) == TBRF_OK, "rational by name");
    CHECK(strcmp(tbrf_model_describe(a), "rational length=1 alpha=1 variance=1") == 0,
          "describe: %s", tbrf_model_describe(a));
    tbrf_model_destroy(a);
    static const struct { const char *kind; int n; const char *names[3]; double v[3]; int st;
                          const char *msg; } bad[] = {
        {"stable", 1, {"length"}, {1}, TBRF_ERR_INVALID, "stable: needs the alpha"},
        {"stable", 2, {"length", "alpha"}, {1, 2.5}, TBRF_ERR_INVALID, "alpha=2.5"},
        {"stable", 2, {"length", "alpha"}, {1, 0}, TBRF_ERR_INVALID, "0 < alpha <= 2"},
        {"rational", 2, {"length", "alpha"}, {1, -1}, TBRF_ERR_INVALID, "0 < alpha <= 50"},
        {"gaussian", 2, {"length", "alpha"}, {1, 1}, TBRF_ERR_INVALID, "gaussian: takes no alpha"},
        {"gaussian", 2, {"length", "lenght"}, {1, 1}, TBRF_ERR_INVALID, "unknown parameter 'lenght'"},
        {"gaussian", 2, {"length", "length"}, {1, 1}, TBRF_ERR_INVALID, "length is given twice"},
        {"table", 1, {"table"}, {1}, TBRF_ERR_INVALID, "index, kmin, kmax, length, nu, alpha"},
        {"cubic", 1, {"length"}, {1}, TBRF_ERR_INVALID, "unknown kind 'cubic'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int st = tbrf_model_make_params(bad[i].kind, bad[i].n, bad[i].names, bad[i].v, &a);
        CHECK(st == bad[i].st && a && tbrf_model_status(a) == st, "make_params refusal %zu: %d", i, st);
        CHECK(a && strstr(tbrf_model_message(a), bad[i].msg), "make_params refusal %zu: \"%s\" "
              "lacks \"%s\"", i, a ? tbrf_model_message(a) : "", bad[i].msg);
        tbrf_model_destroy(a);
    }
    CHECK(tbrf_model_make_params("gaussian", 1, NULL, v1, &a) == TBRF_ERR_NULL, "NULL names");
    tbrf_model_destroy(a);
    CHECK(tbrf_model_make_params("gaussian", 0, NULL, NULL, NULL) == TBRF_ERR_NULL, "NULL out");
}

/* The new kinds against closed forms they reduce to: stable with alpha = 1
 * and 2 is the exponential and the Gaussian exp(-x^2) (its spectrum is the
 * numerical transform of its covariance, so this checks that transform
 * against the closed-form spectra); rational with alpha = 1 has the 3D
 * spectrum 2 pi^2 b^2 e^(-kb) / k (b = length). */
static void test_stable_rational(void)
{
    const char *nm[] = {"length", "alpha"};
    tbrf_model *s, *e;
    for (int al = 1; al <= 2; al++) {
        const double v[] = {0.7, al};
        tbrf_model_make_params("stable", 2, nm, v, &s);
        if (al == 1)
            tbrf_model_exponential(0.7, &e);
        else
            tbrf_model_gaussian(0.7, &e);
        for (int dim = 2; dim <= 3; dim++)
            for (double k = 0.0; k < 40; k = k ? 2 * k : 0.01) {
                const double p = tbrf_model_spectrum(s, dim, k), q = tbrf_model_spectrum(e, dim, k);
                CHECK(fabs(p - q) <= 1e-10 * tbrf_model_spectrum(e, dim, 0), "stable alpha=%d %dD: "
                      "P(%g) = %.12g, closed form %.12g", al, dim, k, p, q);
            }
        for (double r = 0.0; r < 5; r += 0.37)
            CHECK(close_to(tbrf_model_covariance(s, 3, r), tbrf_model_covariance(e, 3, r), 1e-14) &&
                      close_to(tbrfi_model_line_covariance3(s, r), tbrfi_model_line_covariance3(e, r), 1e-13),
                  "stable alpha=%d: C, C1 at %g", al, r);
        CHECK(al == 1 ? tbrf_model_tail_slope(s, 3) == -4 : isnan(tbrf_model_tail_slope(s, 3)),
              "stable alpha=%d tail slope %g", al, tbrf_model_tail_slope(s, 3));
        tbrf_model_destroy(s), tbrf_model_destroy(e);
    }
    const double v[] = {0.8, 1.0};
    tbrf_model_make_params("rational", 2, nm, v, &s);
    for (double k = 0.01; k < 40; k *= 2) {
        const double want = 2 * M_PI * M_PI * 0.64 * exp(-0.8 * k) / k;
        CHECK(close_to(tbrf_model_spectrum(s, 3, k), want, 1e-12), "rational 3D P(%g) = %.12g, "
              "want %.12g", k, tbrf_model_spectrum(s, 3, k), want);
    }
    CHECK(isinf(tbrf_model_spectrum(s, 3, 0.0)), "rational alpha=1 3D: P(0) infinite");
    CHECK(close_to(tbrf_model_covariance(s, 3, 0.8), 0.5, 1e-15), "rational C(b) = 1/2");
    tbrf_model_destroy(s);
}

/* tbrf_model_set_anisotropy: non-positive, NaN or infinite
 * factors and non-finite angles refused with a message naming the entry,
 * the model left as it was; the identity is no anisotropy (the isotropic
 * description); a 2D plan refuses a 3D anisotropy, naming it. */
static void test_anisotropy_input(void)
{
    tbrf_model *m = NULL;
    CHECK(tbrf_model_gaussian(2.0, &m) == TBRF_OK, "gaussian");
    const char *iso = "gaussian length=2 variance=1";
    CHECK(strcmp(tbrf_model_describe(m), iso) == 0, "describe: %s", tbrf_model_describe(m));
    const double zero[3] = {0, 0, 0};
    const struct { double s[3], a[3]; const char *what; } bad[] = {
        {{1, 0, 1}, {0, 0, 0}, "scale[1]=0"},         {{-1, 1, 1}, {0, 0, 0}, "scale[0]=-1"},
        {{1, 1, NAN}, {0, 0, 0}, "scale[2]=nan"},     {{1, INFINITY, 1}, {0, 0, 0}, "scale[1]=inf"},
        {{1, 1, 1}, {0, NAN, 0}, "angles[1]=nan"},    {{1, 1, 1}, {0, 0, -INFINITY}, "angles[2]=-inf"}};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(tbrf_model_set_anisotropy(m, bad[i].s, bad[i].a) == TBRF_ERR_INVALID,
              "%s accepted", bad[i].what);
        CHECK(strstr(tbrf_model_message(m), bad[i].what) != NULL, "message '%s' does not name %s",
              tbrf_model_message(m), bad[i].what);
        CHECK(strcmp(tbrf_model_describe(m), iso) == 0, "a refused anisotropy changed the model: %s",
              tbrf_model_describe(m));
    }
    CHECK(tbrf_model_set_anisotropy(m, NULL, zero) == TBRF_ERR_NULL, "NULL scale");
    CHECK(tbrf_model_set_anisotropy(NULL, zero, zero) == TBRF_ERR_NULL, "NULL model");
    const double one[3] = {1, 1, 1};
    CHECK(tbrf_model_set_anisotropy(m, one, zero) == TBRF_OK, "identity");
    CHECK(strcmp(tbrf_model_describe(m), iso) == 0, "the identity is described: %s",
          tbrf_model_describe(m));
    const double s3[3] = {1, 0.5, 2}, a3[3] = {0.1, 0.2, 0.3};
    CHECK(tbrf_model_set_anisotropy(m, s3, a3) == TBRF_OK, "3D anisotropy");
    CHECK(strcmp(tbrf_model_describe(m),
                 "gaussian length=2 anis=[1, 0.5, 2] angles=[0.1, 0.2, 0.3] variance=1") == 0,
          "describe: %s", tbrf_model_describe(m));
    CHECK(tbrf_model_set_variance(m, 2.0) == TBRF_OK &&
          strcmp(tbrf_model_describe(m),
                 "gaussian length=2 anis=[1, 0.5, 2] angles=[0.1, 0.2, 0.3] variance=2") == 0,
          "describe after set_variance: %s", tbrf_model_describe(m));
    double gs[3], ga[3];
    CHECK(tbrf_model_anisotropy(m, gs, ga) == TBRF_OK && gs[2] == 2 && ga[1] == 0.2, "read back");
    const double lo[3] = {0, 0, 0}, hi[3] = {1, 1, 1};
    tbrf_plan *p = NULL;
    CHECK(tbrf_make_plan(m, 2, lo, hi, 0.1, 1, NULL, &p) == TBRF_ERR_INVALID &&
              strstr(tbrf_plan_message(p), "anisotropy is three-dimensional") != NULL,
          "a 2D plan of a 3D anisotropy: %s", tbrf_plan_message(p));
    tbrf_destroy(p);
    /* the driver's modes fill shells of |k|: it refuses, naming why */
    tbrf_driver_params dp;
    tbrf_driver_default_params(&dp);
    tbrf_driver *d = NULL;
    CHECK(tbrf_driver_make(m, 1, &dp, &d) == TBRF_ERR_UNSUPPORTED &&
              strstr(tbrf_driver_message(d), "isotropic models only") != NULL,
          "the driver with an anisotropic model: %s", d ? tbrf_driver_message(d) : "(null)");
    tbrf_driver_destroy(d);
    tbrf_model_destroy(m);
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(g_dir, sizeof g_dir, "%s/tbrf-model-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(g_dir)) {
        printf("cannot make a temporary directory\n");
        return 2;
    }
    test_table_arrays();
    test_table_files();
    test_bad_parameters();
    test_describe();
    test_kinds();
    test_covariance_kinds();
    test_make_params();
    test_stable_rational();
    test_anisotropy_input();
    for (int i = 0; i < g_nfiles; i++)
        remove(g_files[i]);
    rmdir(g_dir);
    return check_report("test_model_input");
}
