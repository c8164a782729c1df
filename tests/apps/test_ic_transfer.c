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
 *    sigma8's integrand is refused when normalised, accepted when kept. */
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
              calloc(3 * g * g * g, sizeof(double))};
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
    return check_report("test_ic_transfer");
}
