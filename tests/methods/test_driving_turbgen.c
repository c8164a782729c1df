/* test_driving_turbgen.c — TurbGen's parameter files
 * (tbrf_driver_params_from_turbgen; doc/driving.md, "TurbGen's parameter
 * files").
 *
 * tests/data/turbgen/TurbGen.par is TurbGen's own example; its variants
 * replace single lines. Checked:
 *  - the parameters: box, components, zeta = sol_weight, tcorr = t_decay =
 *    L / (k_driv velocity), dt_update = t_decay / nsteps_per_t_turb, the
 *    seed, ampl_factor^1.5 as the components' factors;
 *  - the force rms against TurbGen's own field for the same file, measured
 *    with TurbGen built from source (chfeder/turbulence_generator fab24a3,
 *    16^3 cells at 100 (or 300) times 3 t_decay apart: the mean of <|f|^2>_box and
 *    its standard error): |rms^2 - m| within 4 standard errors (TurbGen's
 *    scatter; the tbrf value is exact, an ensemble sum);
 *  - the driver made from it: its box mean square averaged over 400
 *    updates 10 tcorr apart equals rms^2 within 4 standard errors (from
 *    the samples), and its per-mode power follows TurbGen's A_k^2 = shape
 *    (kc/k)^2 shell by shell (each |m|^2 class's mean |coef|^2 / A^2 equal
 *    to the pooled ratio within 4 standard errors of the class);
 *  - refusals named: an unknown key, ndim = 1, ampl_auto_adjust = 1, a
 *    missing key, more modes than TurbGen's limit, a list of the wrong
 *    length;
 *  - the amplitude controller (tbrf_driver_amplitude_adjust): the target
 *    is a fixed point; on a plant with TurbGen's scaling v_d = c_d
 *    gain_d^(2/3) (different c_d per component) 300 updates of dt = T/10
 *    bring every v_d to target / sqrt(3) within 1e-9, monotonically (no
 *    overshoot); a replay of the same inputs gives the same bits (what a
 *    restart relies on); TurbGen's guards (a component measured 0 keeps
 *    its gain, nothing adjusts until t > 0.1 T); every refusal names its
 *    argument and hands the gains back unchanged;
 *  - the gains as restart state: tbrf_driver_state_params reads a saved
 *    state's gains (amplitude_factor), rms and seed back, and a driver
 *    made from them and loaded gives bitwise the original's force; a
 *    damaged or short state refused. */
#include <stdlib.h>
#include <string.h>

#include "support/testutil.h"

static const double PI = 3.14159265358979323846;

static char *read_text(const char *path)
{
    FILE *fp = fopen(path, "rb");
    CHECK(fp != NULL, "cannot open %s", path);
    char *t = tu_malloc(1 << 16);
    size_t n = fread(t, 1, (1 << 16) - 1, fp);
    fclose(fp);
    t[n] = '\0';
    return t;
}

/* The text with the line starting with `key` (then a space or '=')
 * replaced by "key = value" (appended if absent; value NULL deletes). */
static char *with(const char *text, const char *key, const char *value)
{
    const size_t kl = strlen(key);
    char *out = tu_malloc(strlen(text) + 256);
    out[0] = '\0';
    int done = 0;
    for (const char *p = text; *p;) {
        size_t len = strcspn(p, "\n");
        const int hit = strncmp(p, key, kl) == 0 && (p[kl] == ' ' || p[kl] == '=');
        if (hit) {
            done = 1;
            if (value)
                sprintf(out + strlen(out), "%s = %s\n", key, value);
        } else {
            strncat(out, p, len);
            strcat(out, "\n");
        }
        p += len + (p[len] == '\n');
    }
    if (!done && value)
        sprintf(out + strlen(out), "%s = %s\n", key, value);
    return out;
}

static int parse(const char *text, tbrf_driver_params *p, uint64_t *seed, tbrf_model **m,
                 char *msg)
{
    return tbrf_driver_params_from_turbgen(text, p, seed, m, msg, 512);
}

/* TurbGen's measured mean square (and standard error) of its field. */
static void check_rms(const char *name, const tbrf_driver_params *p, double ms, double se)
{
    const double r2 = p->rms * p->rms;
    CHECK(fabs(r2 - ms) <= 4.0 * se, "%s: rms^2 %.5f, TurbGen's field %.5f +- %.5f", name, r2, ms,
          se);
    printf("%-10s rms %.5f (TurbGen's field %.5f +- %.5f)\n", name, p->rms, sqrt(ms),
           0.5 * se / sqrt(ms));
}

/* The driver from TurbGen.par: rms over updates and the spectrum's shape. */
static void check_driver(const tbrf_model *model, uint64_t seed, const tbrf_driver_params *p)
{
    tbrf_driver *d = NULL;
    CHECK(tbrf_driver_make(model, seed, p, &d) == TBRF_OK, "make: %s", tbrf_driver_message(d));
    tbrf_driver_info info;
    tbrf_driver_get_info(d, &info);
    CHECK(info.dt_update == p->tcorr / 10.0 && fabs(info.decay - exp(-0.1)) < 1e-15,
          "dt_update %g decay %g", info.dt_update, info.decay);
    enum { T = 400, NC = 10 };
    int64_t nm = info.modes;
    int32_t *m = tu_malloc(sizeof(int32_t) * 3 * (size_t)nm);
    double *c = tu_malloc(sizeof(double) * 6 * (size_t)nm);
    double s = 0.0, ss = 0.0, cls[NC][T], tot[T];
    const double kmin = 2 * PI, kmax = 6 * PI, kc = 0.5 * (kmin + kmax);
    memset(cls, 0, sizeof cls);
    int cnt[NC] = {0};
    for (int i = 0; i < T; i++) {
        const double t = (10.0 * i + 0.25) * p->tcorr;
        double r;
        CHECK(tbrf_driver_rms(d, t, &r) == TBRF_OK, "rms: %s", tbrf_driver_message(d));
        s += r * r;
        ss += r * r * r * r;
        int64_t n = nm;
        CHECK(tbrf_driver_modes(d, t, &n, m, c) == TBRF_OK && n == nm, "modes");
        tot[i] = 0.0;
        for (int64_t k = 0; k < nm; k++) {
            const int q = m[3 * k] * m[3 * k] + m[3 * k + 1] * m[3 * k + 1] + m[3 * k + 2] * m[3 * k + 2];
            const double ka = 2 * PI * sqrt((double)q), u = (ka - kc) / (0.5 * (kmax - kmin));
            const double A2 = (1.0 - u * u) * (kc / ka) * (kc / ka); /* TurbGen's A_k^2 */
            double p2 = 0.0;
            for (int j = 0; j < 6; j++)
                p2 += c[6 * k + j] * c[6 * k + j];
            CHECK(q < NC, "mode |m|^2 = %d outside k = 1..3", q);
            cls[q][i] += p2 / A2;
            tot[i] += p2 / A2;
            if (i == 0)
                cnt[q]++;
        }
    }
    const double mean = s / T, se = sqrt((ss / T - mean * mean) / (T - 1));
    CHECK(fabs(mean - p->rms * p->rms) <= 4.0 * se, "box mean square %.5f +- %.5f, rms^2 %.5f",
          mean, se, p->rms * p->rms);
    printf("driver: box mean square over %d updates %.5f +- %.5f (rms^2 %.5f)\n", T, mean, se,
           p->rms * p->rms);
    double pooled = 0.0;
    for (int i = 0; i < T; i++)
        pooled += tot[i] / (double)nm / T;
    for (int q = 1; q < NC; q++) {
        if (!cnt[q])
            continue;
        double a = 0.0, aa = 0.0;
        for (int i = 0; i < T; i++) {
            const double x = cls[q][i] / cnt[q];
            a += x;
            aa += x * x;
        }
        a /= T;
        const double sq = sqrt((aa / T - a * a) / (T - 1));
        CHECK(fabs(a - pooled) <= 4.0 * sq, "|m|^2 = %d: power / A^2 %.5g +- %.2g, pooled %.5g", q,
              a, sq, pooled);
        printf("  |m|^2 = %d (%2d modes): power / TurbGen's A^2 = %.4f +- %.4f of the pooled\n", q,
               cnt[q], a / pooled, sq / pooled);
    }
    free(m);
    free(c);
    tbrf_driver_destroy(d);
}

/* tbrf_driver_amplitude_adjust at time t as a check: TBRF_OK expected. */
static int adjust(int n, const double *g, const double *v, double target, double t, double dt,
                  double T, double *out)
{
    char msg[256];
    const int st = tbrf_driver_amplitude_adjust(n, g, v, target, t, dt, T, out, msg, sizeof msg);
    CHECK(st == TBRF_OK && msg[0] == '\0', "adjust: %s", msg);
    return st;
}

/* A refusal: the status, the argument named in the message, and the
 * gains handed back unchanged (gain_out = gain, never left undefined). */
static void adjust_refused(int n, const double *v, double target, double t, double dt, double T,
                           int status, const char *word)
{
    const double g[3] = {1.25, 0.75, 2.5};
    double out[3] = {-1.0, -1.0, -1.0};
    char msg[256];
    const int st = tbrf_driver_amplitude_adjust(n, g, v, target, t, dt, T, out, msg, sizeof msg);
    CHECK(st == status, "%s: status %d, want %d", word, st, status);
    CHECK(strstr(msg, word) != NULL, "the message names %s: '%s'", word, msg);
    const int k = n >= 1 && n <= 3 ? n : 0;
    CHECK(k == 0 || memcmp(out, g, sizeof(double) * (size_t)k) == 0, "%s: gain_out = gain", word);
}

static void controller(void)
{
    const double c[3] = {0.7, 1.3, 2.9}, target = 1.5, T = 0.5, dt = 0.05, t0 = 0.2 * T;
    double g[3] = {1.0, 1.0, 1.0}, v[3], out[3], first[300][3];
    for (int d = 0; d < 3; d++)
        v[d] = target / sqrt(3.0);
    CHECK(adjust(3, g, v, target, t0, dt, T, out) == TBRF_OK && fabs(out[0] - 1.0) < 1e-15 &&
              fabs(out[2] - 1.0) < 1e-15,
          "the target is a fixed point");
    for (int rep = 0; rep < 2; rep++) {
        double gg[3] = {1.0, 1.0, 1.0}, prev[3];
        for (int d = 0; d < 3; d++)
            prev[d] = fabs(c[d] - target / sqrt(3.0));
        for (int j = 0; j < 300; j++) {
            double vv[3];
            for (int d = 0; d < 3; d++)
                vv[d] = c[d] * pow(gg[d], 2.0 / 3.0);
            adjust(3, gg, vv, target, t0 + j * dt, dt, T, gg);
            for (int d = 0; d < 3; d++) {
                const double e = fabs(c[d] * pow(gg[d], 2.0 / 3.0) - target / sqrt(3.0));
                CHECK(e <= prev[d] * (1.0 + 1e-12), "component %d: error grew at update %d", d, j);
                prev[d] = e;
            }
            if (rep == 0)
                memcpy(first[j], gg, sizeof gg);
            else
                CHECK(memcmp(first[j], gg, sizeof gg) == 0, "replay differs at update %d", j);
        }
        for (int d = 0; d < 3; d++)
            CHECK(prev[d] < 1e-9 * target, "component %d: |v - target/sqrt 3| = %g after 300", d,
                  prev[d]);
    }
    printf("controller: 300 updates bring v_d = c_d g^(2/3) (c = 0.7, 1.3, 2.9) to %.6f each\n",
           target / sqrt(3.0));

    /* TurbGen's guards: a run from rest measures 0 (that component keeps
     * its gain, the others adjust), and nothing adjusts until t > 0.1 T */
    const double g0[3] = {1.25, 0.75, 2.5}, small[3] = {1e-3, 1e-3, 1e-3};
    double rest[3] = {0.0, 0.4, 0.0};
    adjust(3, g0, rest, target, t0, dt, T, out);
    CHECK(out[0] == g0[0] && out[2] == g0[2] && out[1] != g0[1],
          "measured 0 holds that component's gain only: %g %g %g", out[0], out[1], out[2]);
    adjust(3, g0, small, target, 0.1 * T, dt, T, out);
    CHECK(memcmp(out, g0, sizeof out) == 0, "t = 0.1 T: not yet adjusted");
    adjust(3, g0, small, target, 0.0, dt, T, out);
    CHECK(memcmp(out, g0, sizeof out) == 0, "t = 0: not adjusted");
    adjust(3, g0, small, target, nextafter(0.1 * T, 1.0), dt, T, out);
    CHECK(out[0] > g0[0] && out[1] > g0[1] && out[2] > g0[2], "t just past 0.1 T: adjusted up");

    /* refusals name the argument and hand the gains back */
    const double one[3] = {1.0, 1.0, 1.0}, neg[3] = {1.0, -0.5, 1.0}, nan3[3] = {1.0, 1.0, NAN};
    adjust_refused(0, one, target, t0, dt, T, TBRF_ERR_INVALID, "n=0");
    adjust_refused(3, neg, target, t0, dt, T, TBRF_ERR_INVALID, "measured[1]");
    adjust_refused(3, nan3, target, t0, dt, T, TBRF_ERR_INVALID, "measured[2]");
    adjust_refused(3, one, NAN, t0, dt, T, TBRF_ERR_INVALID, "target");
    adjust_refused(3, one, target, -1.0, dt, T, TBRF_ERR_INVALID, "t=");
    adjust_refused(3, one, target, t0, INFINITY, T, TBRF_ERR_INVALID, "dt");
    adjust_refused(3, one, target, t0, dt, 0.0, TBRF_ERR_INVALID, "timescale");
    const double bad_gain[3] = {1.0, 0.0, 1.0};
    double o2[3] = {-1, -1, -1};
    char msg[256];
    CHECK(tbrf_driver_amplitude_adjust(3, bad_gain, one, target, t0, dt, T, o2, msg, sizeof msg) ==
              TBRF_ERR_INVALID && strstr(msg, "gain[1]") && memcmp(o2, bad_gain, sizeof o2) == 0,
          "gain[1] = 0 refused by name, gain_out = gain: '%s'", msg);
    CHECK(tbrf_driver_amplitude_adjust(3, NULL, v, target, t0, dt, T, out, msg, sizeof msg) ==
              TBRF_ERR_NULL && strstr(msg, "gain"), "NULL gain: '%s'", msg);
    CHECK(tbrf_driver_amplitude_adjust(3, g, v, target, t0, dt, T, out, NULL, 0) == TBRF_OK,
          "message may be NULL");
}

/* The gains are restart state: a driver made with them (amplitude_factor
 * and the matching rms) and saved hands them back through
 * tbrf_driver_state_params, and a driver made from those parameters and
 * loaded gives bitwise the force of the original. */
static void controller_restart(void)
{
    tbrf_model *m = NULL;
    CHECK(tbrf_model_band(2.0 * M_PI, 6.0 * M_PI, &m) == TBRF_OK, "band");
    tbrf_driver_params p, q;
    tbrf_driver_default_params(&p);
    p.tcorr = 0.5;
    const double gain[3] = {1.0 / 3.0, 1.7, 0.9};
    double w2 = 0.0;
    for (int d = 0; d < 3; d++) {
        p.amplitude_factor[d] = gain[d];
        w2 += gain[d] * gain[d] / 3.0;
    }
    p.rms = 2.0 * sqrt(w2);
    tbrf_driver *a = NULL, *b = NULL;
    REQUIRE(tbrf_driver_make(m, 77, &p, &a) == TBRF_OK, , "make: %s", tbrf_driver_message(a));
    const double xyz[6] = {0.1, 0.2, 0.3, 0.7, 0.05, 0.95};
    double fa[6], fb[6];
    CHECK(tbrf_driver_points(a, 1.234, 2, xyz, fa) == TBRF_OK, "points");
    const int64_t size = tbrf_driver_state_size(a);
    unsigned char *state = malloc((size_t)size);
    CHECK(tbrf_driver_save(a, state, size) == TBRF_OK, "save: %s", tbrf_driver_message(a));
    uint64_t seed = 0;
    char msg[256];
    CHECK(tbrf_driver_state_params(state, size, &q, &seed, msg, sizeof msg) == TBRF_OK,
          "state_params: %s", msg);
    CHECK(seed == 77 && memcmp(q.amplitude_factor, gain, sizeof gain) == 0 && q.rms == p.rms &&
              q.tcorr == p.tcorr && q.dim == 3,
          "the state's gains %.17g %.17g %.17g, rms %.17g, seed %llu", q.amplitude_factor[0],
          q.amplitude_factor[1], q.amplitude_factor[2], q.rms, (unsigned long long)seed);
    REQUIRE(tbrf_driver_make(m, seed, &q, &b) == TBRF_OK, , "make from the state: %s",
            tbrf_driver_message(b));
    CHECK(tbrf_driver_load(b, state, size) == TBRF_OK, "load: %s", tbrf_driver_message(b));
    CHECK(tbrf_driver_points(b, 1.234, 2, xyz, fb) == TBRF_OK && memcmp(fa, fb, sizeof fa) == 0,
          "restarted from the state's parameters: bitwise the force");
    state[70] ^= 1;
    CHECK(tbrf_driver_state_params(state, size, &q, &seed, msg, sizeof msg) == TBRF_ERR_INVALID &&
              strstr(msg, "checksum"), "a damaged state refused: '%s'", msg);
    CHECK(tbrf_driver_state_params(state, 8, &q, NULL, msg, sizeof msg) == TBRF_ERR_INVALID,
          "a short buffer refused: '%s'", msg);
    free(state);
    tbrf_driver_destroy(a);
    tbrf_driver_destroy(b);
    tbrf_model_destroy(m);
}

/* The modes a driver made from p drives. */
static int64_t modes_of(const tbrf_model *m, uint64_t seed, const tbrf_driver_params *p)
{
    tbrf_driver *d = NULL;
    tbrf_driver_info info = {0};
    if (!CHECK(tbrf_driver_make(m, seed, p, &d) == TBRF_OK && tbrf_driver_get_info(d, &info) == TBRF_OK,
               "make: %s", tbrf_driver_message(d)))
        info.modes = -1;
    tbrf_driver_destroy(d);
    return info.modes;
}

/* A power law's modes are sampled as TurbGen samples them: its list holds
 * at most 2^3 ceil(ik^angles_exp) directions per shell ik (fewer where one
 * rounds out of the band), and the driver takes the largest `directions`
 * whose modes are no more than TurbGen's list (every mode where the band
 * holds no more; D = 1, the fewest, where even that is more). Band and
 * parabola files drive every mode, as TurbGen does. directions = 0 after
 * the parse drives every mode at the same rms. */
static void turbgen_directions(const char *base)
{
    tbrf_driver_params p;
    uint64_t seed = 0;
    tbrf_model *model = NULL;
    char msg[512];
    CHECK(parse(base, &p, &seed, &model, msg) == TBRF_OK && p.directions == 0,
          "the parabola drives every mode (directions %d)", (int)p.directions);
    tbrf_model_destroy(model);
    char *band = with(base, "spect_form", "0");
    CHECK(parse(band, &p, &seed, &model, msg) == TBRF_OK && p.directions == 0,
          "the band drives every mode (directions %d)", (int)p.directions);
    tbrf_model_destroy(model);
    free(band);
    char *pl = with(base, "spect_form", "2"), *wide = with(pl, "k_max", "16.0");
    const char *exps[] = {"1.0", "0.0", "2.0"};
    for (int e = 0; e < 3; e++) {
        char *t = with(wide, "angles_exp", exps[e]);
        REQUIRE(parse(t, &p, &seed, &model, msg) == TBRF_OK, , "angles_exp %s: %s", exps[e], msg);
        int64_t nominal = 0; /* TurbGen's list before the band test */
        for (int ik = 1; ik <= 16; ik++)
            nominal += 8 * (int64_t)ceil(pow((double)ik, atof(exps[e])));
        const int64_t kept = modes_of(model, seed, &p);
        tbrf_driver_params all = p;
        all.directions = 0;
        const int64_t every = modes_of(model, seed, &all);
        const double rms = p.rms;
        printf("power law k = 1..16, angles_exp %s: directions %d, %lld modes (TurbGen's list <= %lld, "
               "the band %lld)\n", exps[e], (int)p.directions, (long long)kept, (long long)nominal,
               (long long)every);
        CHECK(every == 8538, "directions = 0: every mode of k = 1..16 (%lld)", (long long)every);
        if (e == 0) /* 8 s per shell: D <= 8 */
            CHECK(p.directions >= 1 && p.directions <= 8 && kept <= nominal && kept < every,
                  "angles_exp 1: directions %d, %lld modes <= TurbGen's %lld", (int)p.directions,
                  (long long)kept, (long long)nominal);
        if (e == 1) /* 8 per shell: fewer than D = 1 keeps */
            CHECK(p.directions == 1, "angles_exp 0: the fewest directions (%d)", (int)p.directions);
        if (e == 2) /* 8 ik^2 per shell: more than the band holds */
            CHECK(p.directions == 0 && kept == every, "angles_exp 2: every mode (directions %d)",
                  (int)p.directions);
        if (e == 0) { /* one more direction than chosen drives more */
            tbrf_driver_params more = p;
            more.directions = p.directions + 1;
            CHECK(modes_of(model, seed, &more) > kept && rms == all.rms, "D + 1 drives more modes; the rms "
                  "is the file's whatever the directions");
        }
        tbrf_model_destroy(model);
        free(t);
    }
    free(pl);
    free(wide);
}

static void refused(const char *text, int status, const char *word)
{
    tbrf_driver_params p;
    uint64_t seed;
    tbrf_model *m = (tbrf_model *)&p; /* set to NULL by the call */
    char msg[512];
    const int st = parse(text, &p, &seed, &m, msg);
    CHECK(st == status && m == NULL && strstr(msg, word), "want %d naming '%s', got %d: %s",
          status, word, st, msg);
}

int main(void)
{
    char *base = read_text(TBRF_TEST_DATA "/turbgen/TurbGen.par");
    tbrf_driver_params p;
    uint64_t seed = 0;
    tbrf_model *model = NULL;
    char msg[512];
    CHECK(parse(base, &p, &seed, &model, msg) == TBRF_OK, "TurbGen.par: %s", msg);
    CHECK(p.dim == 3 && p.components == 0 && p.periodic == 1 && p.length[0] == 1.0 &&
              p.length[2] == 1.0 && p.zeta == 0.5 && p.tcorr == 0.5 && p.dt_update == 0.05 &&
              seed == 140281 && p.normalization == TBRF_DRIVE_RMS_ENSEMBLE &&
              p.amplitude_factor[0] == 1.0 && p.amplitude_factor[2] == 1.0,
          "TurbGen.par's parameters");
    /* TurbGen built from source, this file: <|f|^2> = 5.21756 +- 0.04800 */
    check_rms("TurbGen.par", &p, 5.21756, 0.04800);
    check_driver(model, seed, &p);
    tbrf_model_destroy(model);

    /* variants: TurbGen's measured <|f|^2> and standard error for each */
    struct {
        const char *name, *kv[8];
        double ms, se;
    } var[] = {
        {"band", {"spect_form", "0", "sol_weight", "1.0"}, 2.39624, 0.01548}, /* 300 times */
        {"powerlaw", {"spect_form", "2", "k_max", "8.0", "sol_weight", "0.0"}, 0.87650, 0.03523},
        {"factors", {"ampl_factor", "1.0, 0.5, 2.0"}, 15.70333, 0.14065}, /* 300 times */
        /* TurbGen's ndim = 2 leaves L_z unset and drives nothing (its modes'
         * k_z = 0 / L_z): 2.5 is its 2D box that works */
        {"2.5D", {"ndim", "2.5", "spect_form", "0", "velocity", "2.0", "ampl_factor",
                  "1.0, 0.5, 2.0"}, 58.26942, 1.53157},
    };
    for (size_t i = 0; i < sizeof var / sizeof var[0]; i++) {
        char *t = with(base, var[i].kv[0], var[i].kv[1]);
        for (int j = 2; j < 8 && var[i].kv[j]; j += 2) {
            char *u = with(t, var[i].kv[j], var[i].kv[j + 1]);
            free(t);
            t = u;
        }
        CHECK(parse(t, &p, &seed, &model, msg) == TBRF_OK, "%s: %s", var[i].name, msg);
        check_rms(var[i].name, &p, var[i].ms, var[i].se);
        tbrf_driver *d = NULL;
        CHECK(tbrf_driver_make(model, seed, &p, &d) == TBRF_OK, "%s: make: %s", var[i].name,
              tbrf_driver_message(d));
        tbrf_driver_destroy(d);
        tbrf_model_destroy(model);
        free(t);
    }
    char *t = with(base, "ampl_factor", "1.0, 0.5, 2.0");
    CHECK(parse(t, &p, &seed, &model, msg) == TBRF_OK, "%s", msg);
    CHECK(p.amplitude_factor[0] == 1.0 && fabs(p.amplitude_factor[1] - pow(0.5, 1.5)) < 1e-15 &&
              fabs(p.amplitude_factor[2] - pow(2.0, 1.5)) < 1e-15,
          "ampl_factor^1.5");
    tbrf_model_destroy(model);
    free(t);
    t = with(base, "ndim", "2.5");
    CHECK(parse(t, &p, &seed, &model, msg) == TBRF_OK && p.dim == 2 && p.components == 3,
          "ndim 2.5: %s", msg);
    tbrf_model_destroy(model);
    free(t);

    t = with(base, "foo_bar", "1");
    refused(t, TBRF_ERR_UNSUPPORTED, "foo_bar");
    free(t);
    t = with(base, "ndim", "1");
    refused(t, TBRF_ERR_UNSUPPORTED, "ndim = 1");
    free(t);
    t = with(base, "ampl_auto_adjust", "1");
    refused(t, TBRF_ERR_UNSUPPORTED, "ampl_auto_adjust");
    free(t);
    t = with(base, "k_driv", NULL);
    refused(t, TBRF_ERR_INVALID, "'k_driv' is missing");
    free(t);
    t = with(base, "k_max", "40.0"); /* 268k lattice modes: TurbGen stops above 100000 */
    refused(t, TBRF_ERR_SIZE, "more than 100000 TurbGen modes");
    free(t);
    t = with(base, "L", "1.0, 2.0");
    refused(t, TBRF_ERR_INVALID, "'L' has 2 values");
    free(t);
    turbgen_directions(base);
    free(base);
    controller();
    controller_restart();
    return check_report("test_driving_turbgen");
}
