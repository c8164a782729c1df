/* test_ic_transfer.c — transfer files read as P(k) models
 * (tbrf_ic_transfer_power; doc/ic.md, "Transfer files") and what the
 * cosmological IC does with them, through the public API:
 *  - the stored real CAMB file (header-less, 13 columns) and CLASS tk file
 *    (format = class, tests/data/transfer/README.md): the model at every
 *    row is k^n_s T^2 of the species' column (CAMB's CDM, baryon, total;
 *    CLASS's d_cdm, d_b, d_tot divided by k^2), read back here from the
 *    file with sscanf, to 1e-13 relative;
 *  - the same rows behind recent CAMB's '#' header and in CLASS's format =
 *    camb layout (-T_i/k2 columns, written here from the d_i) give the same
 *    models; CLASS's d_m is taken for the matter over d_tot;
 *  - refused with TBRF_ERR_TABLE and a message naming what was expected: a
 *    two-column P(k) table, a CLASS header without d_tot, a Newtonian-gauge
 *    CLASS file (t_cdm), rows of unequal length; a missing file
 *    TBRF_ERR_FILE; a bad species or n_s TBRF_ERR_INVALID;
 *  - the IC: the gas's own spectrum (power_gas) scaled by the factor that
 *    normalises power: each mode of the gas's displacement is the dark
 *    matter's times T_b(k)/T_m(k) (the same phases), checked on the
 *    displacement field's DFT; keep_amplitude takes the rows as written
 *    (the displacements scale by sqrt of the rows' factor); a table that
 *    stops between pi G/L and sqrt(3) pi G/L is accepted; one that cuts
 *    sigma8's integrand is refused when normalised, accepted when kept;
 *  - two fluids (tbrf_ic_transfer_velocity; power_dm, velocity_dm,
 *    velocity_gas) on a hand-made CAMB file whose columns differ from k
 *    to k: each species' displacement and velocity mode by mode against
 *    its own column (the same phases), the mass-weighted displacement the
 *    total's, v_b doubled doubling the gas's velocities alone, the growing
 *    mode without velocity models, the total's Psi without power_dm;
 *    CLASS's Newtonian theta from t_b, h_prime, eta_prime; the refusals
 *    (no velocity columns, NaN, a velocity against its density's sign, a
 *    header naming another column count, parameters out of place). */
#define _POSIX_C_SOURCE 200809L
#include <complex.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/check.h"
#include "tbrf.h"

#define PI 3.14159265358979323846

static char camb[1024], class_tk[1024];

/* The file's numeric rows (lines not starting with '#'): k and the
 * column col (0-based) into k[], t[]; the count. */
static int read_column(const char *path, int col, double *k, double *t, int max)
{
    FILE *f = fopen(path, "r");
    char line[8192];
    int n = 0;
    while (f && fgets(line, sizeof line, f) && n < max) {
        if (line[0] == '#')
            continue;
        char *s = line, *end;
        double v[32];
        int c = 0;
        while (c < 32 && (v[c] = strtod(s, &end), end != s)) {
            s = end;
            c++;
        }
        if (c > col) {
            k[n] = v[0];
            t[n] = v[col];
            n++;
        }
    }
    if (f)
        fclose(f);
    return n;
}

/* The model at every row against k^n_s (t / k^delta2)^2. */
static void check_rows(const char *what, tbrf_model *m, const double *k, const double *t, int n,
                       double ns, int delta)
{
    REQUIRE(m && tbrf_model_set_amplitude(m, 1.0) == TBRF_OK, , "%s: a model", what);
    double worst = 0;
    for (int i = 0; i < n; i++) {
        double tt = delta ? t[i] / (k[i] * k[i]) : t[i];
        double want = pow(k[i], ns) * tt * tt, got = tbrf_model_spectrum(m, 3, k[i]);
        double e = want > 0 ? fabs(got / want - 1) : fabs(got);
        worst = e > worst ? e : worst;
    }
    CHECK(n > 20 && worst < 1e-13, "%s: %d rows, worst relative difference %g", what, n, worst);
}

static tbrf_model *transfer(const char *path, int species, double ns, int want_format)
{
    tbrf_model *m = NULL;
    int32_t format = -1;
    char msg[512];
    int st = tbrf_ic_transfer_power(path, species, ns, &format, &m, msg, sizeof msg);
    CHECK(st == TBRF_OK && format == want_format && msg[0] == '\0', "%s species %d: status %d, "
          "format %d (want %d): %s", path, species, st, (int)format, want_format, msg);
    return m;
}

static void test_files(void)
{
    static double k[4096], t[4096];
    const double ns = 0.9667;
    /* CAMB: 1 k/h, 2 CDM, 3 baryon, 7 total */
    const int camb_col[3] = {6, 2, 1}, class_col[3] = {5, 2, 3};
    for (int s = 0; s < 3; s++) {
        int n = read_column(camb, camb_col[s], k, t, 4096);
        tbrf_model *m = transfer(camb, s, ns, TBRF_IC_TRANSFER_CAMB);
        check_rows("CAMB", m, k, t, n, ns, 0);
        tbrf_model_destroy(m);
        n = read_column(class_tk, class_col[s], k, t, 4096);
        m = transfer(class_tk, s, ns, TBRF_IC_TRANSFER_CLASS);
        check_rows("CLASS", m, k, t, n, ns, 1);
        tbrf_model_destroy(m);
    }
}

/* Writes rows (k and cols columns from v) under a header into path. */
static void write_file(const char *path, const char *header, int n, const double *kk,
                       const double *v, int cols)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    if (header)
        fprintf(f, "%s\n", header);
    for (int i = 0; i < n; i++) {
        fprintf(f, "%.17g", kk[i]);
        for (int c = 0; c < cols; c++)
            fprintf(f, " %.17g", v[i * cols + c]);
        fprintf(f, "\n");
    }
    fclose(f);
}

/* Recent CAMB's header and CLASS's format = camb layout. */
static void test_layouts(void)
{
    static double k[4096], t[4096], v[4096 * 12];
    int n = 0;
    for (int c = 1; c < 13; c++) {
        n = read_column(camb, c, k, t, 4096);
        for (int i = 0; i < n; i++)
            v[i * 12 + c - 1] = t[i];
    }
    write_file("tr_camb_header.dat", "#    k/h          CDM            baryon         photon  "
               "       nu             mass_nu        total          no_nu          total_de  "
               "     Weyl           v_CDM          v_b            v_b-v_c", n, k, v, 12);
    /* CLASS format = camb: -T/k2 of cdm, b, g, ur, ncdm, tot from the d_i */
    const int from[6] = {3, 2, 1, 4, 4, 5};
    for (int c = 0; c < 6; c++) {
        n = read_column(class_tk, from[c], k, t, 4096);
        for (int i = 0; i < n; i++)
            v[i * 6 + c] = -t[i] / (k[i] * k[i]);
    }
    write_file("tr_class_camb.dat", "# 1:k (h/Mpc)  2:-T_cdm/k2  3:-T_b/k2  4:-T_g/k2  "
               "5:-T_ur/k2  6:-T_ncdm/k2  7:-T_tot/k2", n, k, v, 6);
    for (int s = 0; s < 3; s++) {
        tbrf_model *a = transfer(camb, s, 1.0, TBRF_IC_TRANSFER_CAMB);
        tbrf_model *b = transfer("tr_camb_header.dat", s, 1.0, TBRF_IC_TRANSFER_CAMB);
        tbrf_model *c = transfer(class_tk, s, 1.0, TBRF_IC_TRANSFER_CLASS);
        tbrf_model *d = transfer("tr_class_camb.dat", s, 1.0, TBRF_IC_TRANSFER_CLASS);
        size_t na = 0, nc = 0;
        double ka[512], pa[512], kc[512], pc[512];
        na = 512;
        nc = 512;
        if (a && b && c && d && tbrf_model_table_data(a, &na, ka, pa) == TBRF_OK &&
            tbrf_model_table_data(c, &nc, kc, pc) == TBRF_OK) {
            double wb = 0, wd = 0;
            tbrf_model_set_amplitude(a, 1);
            tbrf_model_set_amplitude(b, 1);
            tbrf_model_set_amplitude(c, 1);
            tbrf_model_set_amplitude(d, 1);
            for (size_t i = 0; i < na; i++)
                wb = fmax(wb, fabs(tbrf_model_spectrum(b, 3, ka[i]) /
                                   tbrf_model_spectrum(a, 3, ka[i]) - 1));
            for (size_t i = 0; i < nc; i++)
                wd = fmax(wd, fabs(tbrf_model_spectrum(d, 3, kc[i]) /
                                   tbrf_model_spectrum(c, 3, kc[i]) - 1));
            CHECK(wb < 1e-14 && wd < 1e-13, "species %d: CAMB with a header %g, CLASS "
                  "format = camb %g from the same rows", s, wb, wd);
        }
        tbrf_model_destroy(a);
        tbrf_model_destroy(b);
        tbrf_model_destroy(c);
        tbrf_model_destroy(d);
    }
    remove("tr_camb_header.dat");
    remove("tr_class_camb.dat");
}

static void refused(const char *name, const char *text, int want, const char *needle)
{
    FILE *f = fopen(name, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    tbrf_model *m = NULL;
    char msg[1024];
    int st = tbrf_ic_transfer_power(name, 0, 1.0, NULL, &m, msg, sizeof msg);
    CHECK(st == want && !m && strstr(msg, needle), "%s: status %d (want %d), message %s", name,
          st, want, msg);
    remove(name);
}

/* CLASS writes d_m (matter without radiation) in newer versions: taken
 * over d_tot wherever it stands. */
static void test_d_m(void)
{
    FILE *f = fopen("tr_dm.txt", "w");
    if (f) {
        fputs("# 1:k (h/Mpc)  2:d_b  3:d_cdm  4:d_tot  5:d_m\n0.01 -1 -2 -3 -4\n"
              "0.1 -10 -20 -30 -40\n", f);
        fclose(f);
    }
    tbrf_model *m = NULL;
    char msg[256];
    int st = tbrf_ic_transfer_power("tr_dm.txt", TBRF_IC_TRANSFER_MATTER, 1.0, NULL, &m, msg,
                                    sizeof msg);
    if (CHECK(st == TBRF_OK, "d_m file: %s", msg)) {
        tbrf_model_set_amplitude(m, 1);
        /* k (d_m / k^2)^2 at k = 0.01: 0.01 (4e4)^2 */
        CHECK_NEAR(tbrf_model_spectrum(m, 3, 0.01) / (0.01 * 4e4 * 4e4), 1, 1e-13, "d_m taken");
    }
    tbrf_model_destroy(m);
    remove("tr_dm.txt");
}

static void test_refusals(void)
{
    refused("tr_pk.txt", "# k P\n0.01 100\n0.1 1000\n1 10\n", TBRF_ERR_TABLE, "expected a CAMB");
    refused("tr_nod.txt", "# 1:k (h/Mpc) 2:d_g 3:d_b 4:d_cdm\n1e-3 1 1 1\n1e-2 1 1 1\n",
            TBRF_ERR_TABLE, "total matter");
    refused("tr_newt.txt", "# 1:k (h/Mpc) 2:d_g 3:d_b 4:d_cdm 5:d_tot 6:t_g 7:t_b 8:t_cdm\n"
            "1e-3 1 1 1 1 1 1 1\n1e-2 1 1 1 1 1 1 1\n", TBRF_ERR_TABLE, "Newtonian");
    refused("tr_rag.txt", "1 2 3 4 5 6 7\n2 2 3 4 5 6\n", TBRF_ERR_TABLE, "columns");
    refused("tr_dec.txt", "1 2 3 4 5 6 7\n0.5 2 3 4 5 6 7\n", TBRF_ERR_TABLE, "increase");
    tbrf_model *m = NULL;
    char msg[256];
    CHECK(tbrf_ic_transfer_power("no/such/file", 0, 1.0, NULL, &m, msg, sizeof msg) ==
              TBRF_ERR_FILE && !m, "a missing file");
    CHECK(tbrf_ic_transfer_power(camb, 3, 1.0, NULL, &m, msg, sizeof msg) == TBRF_ERR_INVALID &&
              !m, "species 3");
    CHECK(tbrf_ic_transfer_power(camb, 0, NAN, NULL, &m, msg, sizeof msg) == TBRF_ERR_INVALID,
          "n_s NaN");
    CHECK(tbrf_ic_transfer_power(camb, 0, 1.0, NULL, NULL, msg, sizeof msg) == TBRF_ERR_NULL,
          "model NULL");
}

/* The forward DFT of one component of a g^3 field (x fastest), naive
 * (g is small): F[m] = sum f(x) e^{-2 pi i m.x/g}. */
static void dft(int g, const double *f, int comp, double complex *out)
{
    for (int mz = 0; mz < g; mz++)
        for (int my = 0; my < g; my++)
            for (int mx = 0; mx < g; mx++) {
                double complex s = 0;
                for (int64_t i = 0; i < (int64_t)g * g * g; i++) {
                    int x = (int)(i % g), y = (int)(i / g % g), z = (int)(i / (g * g));
                    s += f[3 * i + comp] * cexp(-2 * PI * I * (mx * x + my * y + mz * z) / g);
                }
                out[mx + g * (my + g * mz)] = s;
            }
}

/* The chunk callback: the dark matter's and gas's displacements from the
 * lattice (minimal image, gas shift removed). */
typedef struct grab {
    int g;
    double box, sdm, sgas;
    double *dm, *gas;
    double *vdm, *vgas; /* the velocities, where not NULL */
} grab;

static double image(double d, double box)
{
    return d - box * floor(d / box + 0.5);
}

static int take(void *user, const tbrf_ic_chunk *ch)
{
    grab *w = user;
    for (int64_t r = 0; r < ch->count; r++) {
        int64_t i = ch->first + r;
        int64_t ix[3] = {i % w->g, i / w->g % w->g, i / ((int64_t)w->g * w->g)};
        for (int c = 0; c < 3; c++) {
            double q = (double)ix[c] * w->box / w->g;
            w->dm[3 * i + c] = image(ch->pos[3 * r + c] - q - w->sdm, w->box);
            if (ch->gas_pos)
                w->gas[3 * i + c] = image(ch->gas_pos[3 * r + c] - q - w->sgas, w->box);
            if (w->vdm)
                w->vdm[3 * i + c] = ch->vel[3 * r + c];
            if (w->vgas && ch->gas_vel)
                w->vgas[3 * i + c] = ch->gas_vel[3 * r + c];
        }
    }
    return 0;
}

static void test_gas_spectrum(void)
{
    const int g = 8;
    tbrf_model *pm = transfer(camb, 0, 0.9667, TBRF_IC_TRANSFER_CAMB);
    tbrf_model *pb = transfer(camb, 1, 0.9667, TBRF_IC_TRANSFER_CAMB);
    REQUIRE(pm && pb, , "the CAMB models");
    tbrf_ic_cosmo_params p;
    tbrf_ic_default_cosmo(&p);
    p.particles = g;
    p.box = 50000;
    p.gas = 1;
    p.power = pm;
    p.power_gas = pb;
    p.lpt = 1; /* the first orders' ratio, without the shared second order */
    tbrf_ic_cosmo *ic = NULL;
    int st = tbrf_ic_cosmo_make(&p, &ic);
    REQUIRE(st == TBRF_OK, , "make: %s", tbrf_ic_cosmo_message(ic));
    tbrf_ic_cosmo_info f;
    tbrf_ic_cosmo_get_info(ic, &f);
    grab w = {g, p.box, f.shift_dm, f.shift_gas, calloc(3 * g * g * g, sizeof(double)),
              calloc(3 * g * g * g, sizeof(double)), NULL, NULL};
    CHECK(tbrf_ic_cosmo_generate(ic, 3, take, &w) == TBRF_OK, "generate");
    double complex *a = malloc(sizeof *a * g * g * g), *b = malloc(sizeof *b * g * g * g);
    double worst = 0;
    int modes = 0;
    tbrf_model_set_amplitude(pm, 1);
    tbrf_model_set_amplitude(pb, 1);
    for (int c = 0; c < 3; c++) {
        dft(g, w.dm, c, a);
        dft(g, w.gas, c, b);
        for (int m = 0; m < g * g * g; m++) {
            int mm[3] = {m % g, m / g % g, m / (g * g)};
            double k2 = 0;
            int nyq = 0;
            for (int d = 0; d < 3; d++) {
                int s = mm[d] > g / 2 ? mm[d] - g : mm[d];
                nyq |= 2 * abs(s) == g;
                k2 += (double)s * s;
            }
            /* inside the sphere, off the Nyquist planes, not the mean */
            if (nyq || k2 == 0 || 4 * k2 > (double)g * g || cabs(a[m]) < 1e-6)
                continue;
            double k = sqrt(k2) * 2 * PI / (p.box / 1000);
            double want = sqrt(tbrf_model_spectrum(pb, 3, k) / tbrf_model_spectrum(pm, 3, k));
            worst = fmax(worst, cabs(b[m] / a[m] - want) / want);
            modes++;
        }
    }
    CHECK(modes > 100 && worst < 1e-7, "gas mode = dark matter mode x T_b/T_m over %d modes: "
          "worst relative difference %g", modes, worst);
    free(a);
    free(b);
    free(w.dm);
    free(w.gas);
    tbrf_ic_cosmo_destroy(ic);
    tbrf_model_destroy(pm);
    tbrf_model_destroy(pb);
}

/* keep_amplitude: the rows as written (c^2 times a table normalised to
 * sigma8 makes displacements c times those of the normalised run). */
static void test_amplitude_and_range(void)
{
    const int g = 8;
    tbrf_model *eh = NULL;
    tbrf_model_eisenstein_hu(0.3089, 0.0486, 0.6774, 0.9667, 2.7255, 1, 1e-4, 100, &eh);
    tbrf_model_normalize_sigma(eh, 8, 0.831);
    size_t n = 0;
    tbrf_model_table_data(eh, &n, NULL, NULL);
    double *k = malloc(n * sizeof *k), *pk = malloc(n * sizeof *pk);
    tbrf_model_table_data(eh, &n, k, pk);
    for (size_t i = 0; i < n; i++)
        pk[i] = 4.0 * tbrf_model_spectrum(eh, 3, k[i]); /* sigma8 2 x 0.831 */
    tbrf_model *rows = NULL;
    tbrf_model_table(n, k, pk, &rows);
    tbrf_ic_cosmo_params p;
    tbrf_ic_default_cosmo(&p);
    p.particles = g;
    p.power = eh;
    double *a = malloc(3 * sizeof(double) * g * g * g), *b = malloc(3 * sizeof(double) * g * g * g);
    tbrf_ic_cosmo *ia = NULL, *ib = NULL;
    int sa = tbrf_ic_cosmo_make(&p, &ia);
    p.power = rows;
    p.keep_amplitude = 1;
    p.sigma8 = 0;
    int sb = tbrf_ic_cosmo_make(&p, &ib);
    if (CHECK(sa == TBRF_OK && sb == TBRF_OK, "make: %s / %s", tbrf_ic_cosmo_message(ia),
              tbrf_ic_cosmo_message(ib)) &&
        CHECK(tbrf_ic_cosmo_displacements(ia, a) == TBRF_OK &&
                  tbrf_ic_cosmo_displacements(ib, b) == TBRF_OK, "displacements")) {
        double worst = 0, big = 0;
        for (int i = 0; i < 3 * g * g * g; i++) {
            worst = fmax(worst, fabs(b[i] - 2 * a[i]));
            big = fmax(big, fabs(a[i]));
        }
        CHECK(worst < 1e-9 * big, "kept amplitude: Psi = 2 Psi(normalised) to %g of %g", worst,
              big);
    }
    tbrf_ic_cosmo_destroy(ia);
    tbrf_ic_cosmo_destroy(ib);
    /* a table reaching pi G/L but not sqrt(3) pi G/L (G = 8 in 50 Mpc/h:
     * 0.503 and 0.871 h/Mpc): accepted when kept, refused when normalised
     * (sigma8's integrand is cut), the message saying so */
    size_t m = 0;
    while (m < n && k[m] <= 0.6)
        m++;
    tbrf_model *cut = NULL;
    tbrf_model_table(m, k, pk, &cut);
    p.power = cut;
    sa = tbrf_ic_cosmo_make(&p, &ia);
    p.keep_amplitude = 0;
    p.sigma8 = 0.831;
    sb = tbrf_ic_cosmo_make(&p, &ib);
    CHECK(sa == TBRF_OK, "a table to 0.6 h/Mpc kept: %s", tbrf_ic_cosmo_message(ia));
    CHECK(sb == TBRF_ERR_INVALID && strstr(tbrf_ic_cosmo_message(ib), "sigma8's integrand"),
          "normalised: %d %s", sb, tbrf_ic_cosmo_message(ib));
    tbrf_ic_cosmo_destroy(ia);
    tbrf_ic_cosmo_destroy(ib);
    /* one stopping short of pi G/L: refused either way */
    while (m > 0 && k[m - 1] > 0.45)
        m--;
    tbrf_model_destroy(cut);
    tbrf_model_table(m, k, pk, &cut);
    p.power = cut;
    p.keep_amplitude = 1;
    sa = tbrf_ic_cosmo_make(&p, &ia);
    CHECK(sa == TBRF_ERR_INVALID && strstr(tbrf_ic_cosmo_message(ia), "sphere"),
          "a table to 0.45 h/Mpc: %d %s", sa, tbrf_ic_cosmo_message(ia));
    tbrf_ic_cosmo_destroy(ia);
    tbrf_model_destroy(cut);
    tbrf_model_destroy(rows);
    tbrf_model_destroy(eh);
    free(k);
    free(pk);
    free(a);
    free(b);
}

/* ------------------------------------------------------------ two fluids */

#define TF_ROWS 400
#define TF_FB (0.0486 / 0.3089)

/* A CAMB 13-column (or 9-column) file whose species differ from k to k:
 * T_c, T_b, the total (1 - f_b) T_c + f_b T_b, v_CDM = g_c(k) T_c, v_b =
 * vscale g_b(k) T_b; bad 1 puts NaN in a v_b, bad 2 flips one v_b's sign. */
static void write_two_fluid(const char *path, double vscale, int cols, int bad)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return;
    for (int i = 0; i < TF_ROWS; i++) {
        const double k = 1e-4 * pow(1e6, i / (double)(TF_ROWS - 1)), lk = log(k);
        const double t = 1.0 / (1.0 + (k / 0.05) * (k / 0.05));
        const double tc = t * (1.0 + 0.1 * sin(lk)), tb = t * (0.6 + 0.2 * cos(2 * lk));
        const double tm = (1 - TF_FB) * tc + TF_FB * tb;
        double vc = tc * (0.95 - 0.05 * tanh(lk)), vb = vscale * tb * (1.2 + 0.1 * sin(3 * lk));
        if (bad == 1 && i == TF_ROWS / 2)
            vb = NAN;
        if (bad == 2 && i == TF_ROWS / 2)
            vb = -vb;
        const double row[13] = {k, tc, tb, 1.3 * t, 1.3 * t, 0, tm, tm, tm, -0.6, vc, vb,
                                vb - vc};
        for (int c = 0; c < cols; c++)
            fprintf(f, c ? " %.17g" : "%.17g", row[c]);
        fprintf(f, "\n");
    }
    fclose(f);
}

static tbrf_model *velocity(const char *path, int species, double hc)
{
    tbrf_model *m = NULL;
    char msg[512];
    int st = tbrf_ic_transfer_velocity(path, species, 0.9667, hc, &m, msg, sizeof msg);
    CHECK(st == TBRF_OK && m && msg[0] == '\0', "%s velocity %d: status %d: %s", path, species,
          st, msg);
    return m;
}

/* The models of a two-fluid file (matter, baryons, CDM, v_CDM, v_b). */
typedef struct tf_models {
    tbrf_model *m[5];
} tf_models;

static tf_models tf_load(const char *path)
{
    tf_models t;
    for (int s = 0; s < 3; s++)
        t.m[s] = transfer(path, s, 0.9667, TBRF_IC_TRANSFER_CAMB);
    t.m[3] = velocity(path, TBRF_IC_TRANSFER_CDM, 1.0);
    t.m[4] = velocity(path, TBRF_IC_TRANSFER_BARYON, 1.0);
    return t;
}

static void tf_free(tf_models *t)
{
    for (int s = 0; s < 5; s++)
        tbrf_model_destroy(t->m[s]);
}

/* A two-fluid run of G = 8 (lpt 1): the species' displacements and
 * velocities into w, the total matter's Psi into tot; vel 0 leaves the
 * velocity models out, dm 0 the dark matter's too; vel 2: all of them,
 * the paired partner. */
static int tf_run(const tf_models *t, int dm, int vel, grab *w, double *tot,
                  tbrf_ic_cosmo_info *f)
{
    tbrf_ic_cosmo_params p;
    tbrf_ic_default_cosmo(&p);
    p.particles = 8;
    p.gas = 1;
    p.lpt = 1;
    p.power = t->m[0];
    p.power_gas = t->m[1];
    p.power_dm = dm ? t->m[2] : NULL;
    p.velocity_dm = dm && vel ? t->m[3] : NULL;
    p.velocity_gas = vel ? t->m[4] : NULL;
    p.paired = vel == 2;
    tbrf_ic_cosmo *ic = NULL;
    int st = tbrf_ic_cosmo_make(&p, &ic);
    if (CHECK(st == TBRF_OK, "two fluids: make: %s", tbrf_ic_cosmo_message(ic))) {
        tbrf_ic_cosmo_get_info(ic, f);
        *w = (grab){8, p.box, f->shift_dm, f->shift_gas, w->dm, w->gas, w->vdm, w->vgas};
        st = tbrf_ic_cosmo_generate(ic, 3, take, w);
        if (st == TBRF_OK)
            st = tbrf_ic_cosmo_displacements(ic, tot);
        CHECK(st == TBRF_OK, "two fluids: generate: %s", tbrf_ic_cosmo_message(ic));
    }
    tbrf_ic_cosmo_destroy(ic);
    return st;
}

/* Every mode of field f (3 g^3) over the total's, against want(k): the
 * worst relative difference, the modes compared in *modes. */
static double tf_modes(const double *f, const double *tot, const tbrf_model *num,
                       const tbrf_model *den, double scale, int *modes)
{
    const int g = 8;
    double complex *a = malloc(sizeof *a * g * g * g), *b = malloc(sizeof *b * g * g * g);
    double worst = 0;
    *modes = 0;
    for (int c = 0; a && b && c < 3; c++) {
        dft(g, tot, c, a);
        dft(g, f, c, b);
        for (int m = 0; m < g * g * g; m++) {
            int mm[3] = {m % g, m / g % g, m / (g * g)}, nyq = 0;
            double k2 = 0;
            for (int d = 0; d < 3; d++) {
                int s = mm[d] > g / 2 ? mm[d] - g : mm[d];
                nyq |= 2 * abs(s) == g;
                k2 += (double)s * s;
            }
            if (nyq || k2 == 0 || 4 * k2 > (double)g * g || cabs(a[m]) < 1e-6)
                continue;
            const double k = sqrt(k2) * 2 * PI / 50.0; /* h/Mpc in the 50 Mpc/h box */
            const double want = scale * sqrt(tbrf_model_spectrum(num, 3, k) /
                                             tbrf_model_spectrum(den, 3, k));
            worst = fmax(worst, cabs(b[m] / a[m] - want) / want);
            (*modes)++;
        }
    }
    free(a);
    free(b);
    return worst;
}

/* Each species' displacement and velocity follow its own columns, mode by
 * mode (the same phases); their mass-weighted mean is the total matter's;
 * the velocity columns are what moves them (doubling v_b doubles the gas's
 * velocities and nothing else); without them the growing mode. */
static void test_two_fluid(void)
{
    const size_t n3 = 3 * 8 * 8 * 8;
    write_two_fluid("tf13.dat", 1.0, 13, 0);
    write_two_fluid("tf13x2.dat", 2.0, 13, 0);
    tf_models t = tf_load("tf13.dat"), t2 = tf_load("tf13x2.dat");
    double *buf = calloc(12 * n3, sizeof(double));
    REQUIRE(buf && t.m[4] && t2.m[4], , "two fluids: the models");
    for (int s = 0; s < 5; s++)
        tbrf_model_set_amplitude(t.m[s], 1);
    static double k[TF_ROWS], col[TF_ROWS];
    int nr = read_column("tf13.dat", 11, k, col, TF_ROWS);
    check_rows("v_b", t.m[4], k, col, nr, 0.9667, 0);
    nr = read_column("tf13.dat", 10, k, col, TF_ROWS);
    check_rows("v_CDM", t.m[3], k, col, nr, 0.9667, 0);
    grab w = {0}, w2 = {0}, w0 = {0};
    w.dm = buf, w.gas = buf + n3, w.vdm = buf + 2 * n3, w.vgas = buf + 3 * n3;
    w2.dm = buf + 4 * n3, w2.gas = buf + 5 * n3, w2.vdm = buf + 6 * n3, w2.vgas = buf + 7 * n3;
    w0.dm = buf + 8 * n3, w0.gas = buf + 9 * n3, w0.vdm = buf + 10 * n3, w0.vgas = buf + 11 * n3;
    double *tot = malloc(n3 * sizeof *tot), *tot0 = malloc(n3 * sizeof *tot0);
    tbrf_ic_cosmo_info f;
    if (tot && tot0 && tf_run(&t, 1, 1, &w, tot, &f) == TBRF_OK &&
        tf_run(&t2, 1, 1, &w2, tot0, &f) == TBRF_OK) {
        const double vown = sqrt(f.scale_factor) * f.hubble; /* u = sqrt(a) H Psi_v */
        int nm[4];
        double e[4] = {tf_modes(w.dm, tot, t.m[2], t.m[0], 1, &nm[0]),
                       tf_modes(w.gas, tot, t.m[1], t.m[0], 1, &nm[1]),
                       tf_modes(w.vdm, tot, t.m[3], t.m[0], vown, &nm[2]),
                       tf_modes(w.vgas, tot, t.m[4], t.m[0], vown, &nm[3])};
        const char *what[4] = {"CDM", "baryon", "v_CDM", "v_b"};
        for (int i = 0; i < 4; i++)
            CHECK(nm[i] > 100 && e[i] < 1e-7, "two fluids: %s: the species' modes over the "
                  "total's = sqrt(P_s / P_m) (x sqrt(a) H for a velocity) over %d modes: worst "
                  "%g", what[i], nm[i], e[i]);
        double dw = 0, big = 0, d2 = 0, v2 = 0, same = 0;
        for (size_t i = 0; i < n3; i++) {
            dw = fmax(dw, fabs((1 - TF_FB) * w.dm[i] + TF_FB * w.gas[i] - tot[i]));
            big = fmax(big, fabs(tot[i]));
            d2 = fmax(d2, fabs(w2.vgas[i] - 2 * w.vgas[i]));
            v2 = fmax(v2, fabs(w.vgas[i]));
            same += fabs(w2.dm[i] - w.dm[i]) + fabs(w2.gas[i] - w.gas[i]) +
                    fabs(w2.vdm[i] - w.vdm[i]);
        }
        /* the rows' interpolation, log-log for each table alone */
        CHECK(dw < 1e-3 * big, "two fluids: (1 - f_b) Psi_c + f_b Psi_b = Psi_m: %g of %g", dw,
              big);
        CHECK(d2 < 1e-12 * v2 && same == 0, "two fluids: v_b doubled: gas velocities x2 (%g of "
              "%g), the rest unchanged (%g)", d2, v2, same);
        /* no velocity columns given: the growing mode of each displacement */
        if (tf_run(&t, 1, 0, &w0, tot0, &f) == TBRF_OK) {
            double g0 = 0, moved = 0;
            for (size_t i = 0; i < n3; i++) {
                g0 = fmax(g0, fabs(w0.vdm[i] - f.velocity_factor * w0.dm[i]) +
                                  fabs(w0.vgas[i] - f.velocity_factor * w0.gas[i]));
                moved = fmax(moved, fabs(w0.vgas[i] - w.vgas[i]));
            }
            CHECK(g0 < 1e-12 * v2 && moved > 1e-2 * v2, "two fluids without velocities: u = "
                  "sqrt(a) f H Psi_s (%g), not the columns' (%g of %g)", g0, moved, v2);
        }
        /* the paired partner: every species' displacement and velocity
         * the other sign */
        if (tf_run(&t, 1, 2, &w0, tot0, &f) == TBRF_OK) {
            double flip = 0;
            for (size_t i = 0; i < n3; i++)
                flip = fmax(flip, fabs(w0.dm[i] + w.dm[i]) + fabs(w0.gas[i] + w.gas[i]) +
                                      fabs(w0.vdm[i] + w.vdm[i]) + fabs(w0.vgas[i] + w.vgas[i]));
            CHECK(flip < 1e-9 * (big + v2), "two fluids paired: every field flips sign (%g)",
                  flip);
        }
        /* no power_dm: the dark matter takes the total matter's Psi */
        if (tf_run(&t, 0, 1, &w0, tot0, &f) == TBRF_OK) {
            double d0 = 0;
            for (size_t i = 0; i < n3; i++)
                d0 = fmax(d0, fabs(w0.dm[i] - tot0[i]));
            CHECK(d0 < 1e-9 * big, "without power_dm the dark matter is the total's: %g", d0);
        }
    }
    free(tot);
    free(tot0);
    free(buf);
    tf_free(&t);
    tf_free(&t2);
    remove("tf13.dat");
    remove("tf13x2.dat");
}

/* CLASS (format = class): the Newtonian theta from t_b, h_prime and
 * eta_prime over a H k^2, at every row; the stored real file reads. */
static void test_class_velocity(void)
{
    const double hc = 1.3e-3;
    FILE *f = fopen("tf_class.dat", "w");
    static double kk[TF_ROWS], tvc[TF_ROWS], tvb[TF_ROWS];
    for (int i = 0; f && i < TF_ROWS; i++) {
        const double k = 1e-4 * pow(1e6, i / (double)(TF_ROWS - 1)), t = 1 / (1 + k * k * 400);
        const double tc = t * (1 + 0.1 * sin(log(k))), tb = 0.7 * t, k2 = k * k;
        const double hp = 1.6 * hc * k2 * tc, ep = (0.2 + 0.1 * cos(log(k))) * hc * k2 * tc / 6;
        const double theta_b = 0.4 * hc * k2 * tb * (1 + 0.2 * sin(2 * log(k)));
        if (i == 0)
            fprintf(f, "# 1:k (h/Mpc) 2:d_b 3:d_cdm 4:d_tot 5:h_prime 6:eta_prime 7:t_b\n");
        fprintf(f, "%.17g %.17g %.17g %.17g %.17g %.17g %.17g\n", k, -k2 * tb, -k2 * tc,
                -k2 * (tc + tb) / 2, hp, ep, theta_b);
        kk[i] = k;
        tvc[i] = -(hp + 6 * ep) / 2 / (hc * k2);
        tvb[i] = -(theta_b + (hp + 6 * ep) / 2) / (hc * k2);
    }
    if (f)
        fclose(f);
    tbrf_model *vc = velocity("tf_class.dat", TBRF_IC_TRANSFER_CDM, hc);
    tbrf_model *vb = velocity("tf_class.dat", TBRF_IC_TRANSFER_BARYON, hc);
    check_rows("CLASS theta_c", vc, kk, tvc, TF_ROWS, 0.9667, 0);
    check_rows("CLASS theta_b", vb, kk, tvb, TF_ROWS, 0.9667, 0);
    tbrf_model_destroy(vc);
    tbrf_model_destroy(vb);
    remove("tf_class.dat");
    vc = velocity(class_tk, TBRF_IC_TRANSFER_CDM, hc);
    vb = velocity(class_tk, TBRF_IC_TRANSFER_BARYON, hc);
    tbrf_model_destroy(vc);
    tbrf_model_destroy(vb);
}

static void velocity_refused(const char *path, int species, double hc, int want,
                             const char *needle)
{
    tbrf_model *m = NULL;
    char msg[1024];
    int st = tbrf_ic_transfer_velocity(path, species, 0.9667, hc, &m, msg, sizeof msg);
    CHECK(st == want && !m && strstr(msg, needle), "%s velocity %d: status %d (want %d), "
          "message %s", path, species, st, want, msg);
}

/* Files without velocity columns, NaN, a velocity against its density,
 * bad arguments; parameters that do not make two fluids. */
static void test_two_fluid_refusals(void)
{
    write_two_fluid("tf9.dat", 1.0, 9, 0);
    velocity_refused("tf9.dat", TBRF_IC_TRANSFER_BARYON, 1.0, TBRF_ERR_UNSUPPORTED,
                     "no baryon velocity");
    velocity_refused("tf9.dat", TBRF_IC_TRANSFER_CDM, 1.0, TBRF_ERR_UNSUPPORTED, "no CDM");
    write_two_fluid("tfnan.dat", 1.0, 13, 1);
    velocity_refused("tfnan.dat", TBRF_IC_TRANSFER_BARYON, 1.0, TBRF_ERR_TABLE, "finite");
    write_two_fluid("tfneg.dat", 1.0, 13, 2);
    velocity_refused("tfneg.dat", TBRF_IC_TRANSFER_BARYON, 1.0, TBRF_ERR_TABLE,
                     "opposite sign");
    tbrf_model *ok = velocity("tfneg.dat", TBRF_IC_TRANSFER_CDM, 1.0);
    tbrf_model_destroy(ok);
    velocity_refused("tf9.dat", TBRF_IC_TRANSFER_MATTER, 1.0, TBRF_ERR_INVALID, "species");
    velocity_refused("tf9.dat", TBRF_IC_TRANSFER_CDM, 0.0, TBRF_ERR_INVALID, "Hubble");
    velocity_refused("tf9.dat", TBRF_IC_TRANSFER_CDM, NAN, TBRF_ERR_INVALID, "Hubble");
    FILE *f = fopen("tf_cc.dat", "w");
    if (f) {
        fputs("# 1:k (h/Mpc) 2:-T_cdm/k2 3:-T_b/k2 4:-T_tot/k2\n1e-3 1 1 1\n1e-2 1 1 1\n", f);
        fclose(f);
    }
    velocity_refused("tf_cc.dat", TBRF_IC_TRANSFER_CDM, 1.0, TBRF_ERR_UNSUPPORTED, "no CDM");
    refused("tf_cols.txt", "# 1:k (h/Mpc) 2:d_b 3:d_cdm 4:d_tot 5:t_b\n1e-3 1 1 1\n1e-2 1 1 1\n",
            TBRF_ERR_TABLE, "names 5 columns, the rows have 4");
    write_two_fluid("tf13.dat", 1.0, 13, 0);
    tf_models t = tf_load("tf13.dat");
    struct {
        int gas, dm, vdm, vgas, fixed;
        const char *needle;
    } bad[] = {{1, 0, 1, 0, 0, "velocity_dm needs power_dm"},
               {1, 1, 0, 0, 0, "power_dm power_gas"},
               {0, 1, 0, 0, 0, "need gas = 1"},
               {1, 1, 1, 1, 1, "fixed_amplitude"}};
    for (size_t i = 0; t.m[4] && i < sizeof bad / sizeof bad[0]; i++) {
        tbrf_ic_cosmo_params p;
        tbrf_ic_default_cosmo(&p);
        p.particles = 8;
        p.gas = bad[i].gas;
        p.power = t.m[0];
        p.power_gas = bad[i].gas && i != 1 ? t.m[1] : NULL;
        p.power_dm = bad[i].dm ? t.m[2] : NULL;
        p.velocity_dm = bad[i].vdm ? t.m[3] : NULL;
        p.velocity_gas = bad[i].vgas ? t.m[4] : NULL;
        p.fixed_amplitude = bad[i].fixed;
        tbrf_ic_cosmo *ic = NULL;
        int st = tbrf_ic_cosmo_make(&p, &ic);
        CHECK(st == TBRF_ERR_INVALID && strstr(tbrf_ic_cosmo_message(ic), bad[i].needle),
              "two fluids refused (%s): %d %s", bad[i].needle, st, tbrf_ic_cosmo_message(ic));
        tbrf_ic_cosmo_destroy(ic);
    }
    tf_free(&t);
    remove("tf9.dat");
    remove("tfnan.dat");
    remove("tfneg.dat");
    remove("tf_cc.dat");
    remove("tf13.dat");
}

int main(void)
{
    snprintf(camb, sizeof camb, "%s/transfer/camb_transfer_99.dat", TBRF_TEST_DATA);
    snprintf(class_tk, sizeof class_tk, "%s/transfer/class_tk_99.dat", TBRF_TEST_DATA);
    test_files();
    test_layouts();
    test_refusals();
    test_d_m();
    test_gas_spectrum();
    test_amplitude_and_range();
    test_two_fluid();
    test_class_velocity();
    test_two_fluid_refusals();
    return check_report("test_ic_transfer");
}
