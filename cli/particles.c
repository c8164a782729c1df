/* particles.c — `preview` and `spectrum` of particle files (particles.h).
 *
 * The mass is deposited by cloud-in-cell (CIC) on a periodic grid of g^3
 * cells over the box, values at the cell centres (i + 1/2) H, H = L/g: a
 * particle at x gives the two cells around it along each axis weights 1 -
 * f and f, f its distance from the lower centre in cells. With that
 * convention a lattice at i L/G or (i + 1/2) L/G with g a multiple of 2G
 * sits on cell faces, where CIC's weights are linear in a small
 * displacement (at a cell centre the kernel has its kink, and a displaced
 * lattice deposits |psi|, not psi).
 *
 * The spectrum divides each mode by the CIC window W^2 = prod_i
 * sinc^4(k_i H/2) (after subtracting the shot noise when it is, in CIC's
 * alias-summed form prod_i (1 - 2/3 sin^2(k_i H/2)) V sum m^2/(sum m)^2,
 * Jing 2005). A lattice displaced by psi deposits, to first order in psi,
 * with the transfer T = sum_i n_i^2 sinc(x_i) prod_(j != i) cos(x_j) (n =
 * k/|k|, x_i = k_i H/2: the images of the lattice add coherently) rather
 * than CIC's sinc^2 per axis, so its deconvolved power runs high by
 * T^2/W^2 - 1 = 2 x^2 (sum_i n_i^4/3 - 1/6), x^2/15 over a shell: 1% at
 * half the particle Nyquist frequency on the default grid of twice the
 * lattice (doc/cli.md, "Particle files"). */
#define _POSIX_C_SOURCE 200809L

#include "particles.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/measure.h"
#include "cli.h"
#include "io/tbrf_io.h"
#include "tbrf.h"
#include "tbrf_arepo.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* The spectrum's default grid is at most this many cells a side. */
#define PARTICLES_DEFAULT_GRID_MAX 512
/* The grid read whole for the FFT; beyond this it would not fit. */
#define PARTICLES_MAX_CELLS ((int64_t)1 << 30)
/* The largest plane side drawn (as preview.c's for grids). */
#define PARTICLES_MAX_SIDE 16000
/* Rows read at a time. */
#define PARTICLES_CHUNK 65536

int cli_particles_open(const char *cmd, const char *file, io_psnap *s)
{
    char err[1024], esc[2048];
    int rc = io_psnap_open(file, s, err, sizeof err);
    if (rc < 0)
        cli_errline("%s: %s", cmd, tbrf_io_escape(err, esc, sizeof esc));
    return rc < 0 ? -1 : rc == 0;
}

static const char *format_name(int format)
{
    return format == TBRF_AREPO_FORMAT_GADGET1   ? "Gadget format 1"
           : format == TBRF_AREPO_FORMAT_GADGET2 ? "Gadget format 2"
                                                 : "AREPO HDF5";
}

/* The lattice's side: the recorded particles_per_axis, else the cube root
 * of the most numerous type's count. */
static int64_t lattice_side(const io_psnap *s)
{
    double g;
    if (io_psnap_number(s, "particles_per_axis", &g) == 0 && g >= 1 && g <= 1e6)
        return (int64_t)g;
    int64_t most = 0;
    for (int t = 0; t < 6; t++)
        most = s->total[t] > most ? s->total[t] : most;
    int64_t side = (int64_t)llround(cbrt((double)most));
    return side < 1 ? 1 : side;
}

/* ------------------------------------------------------------ deposit */

/* The deposit: the whole grid, or one plane across `axis`. */
typedef struct deposit {
    double *rho;
    int64_t g;
    int axis;      /* -1: the whole grid */
    int64_t plane;
    double cells_per_length;
    const double *mass_table;
    long double msum, m2sum; /* of every particle, deposited or not */
} deposit;

/* The two cells around coordinate x and the upper one's weight. */
static void cic_cells(const deposit *d, double x, int64_t *i0, int64_t *i1, double *f)
{
    double u = x * d->cells_per_length - 0.5, fl = floor(u);
    int64_t i = (int64_t)fl;
    *f = u - fl;
    *i0 = (i % d->g + d->g) % d->g;
    *i1 = (*i0 + 1) % d->g;
}

static int deposit_rows(void *user, int type, const double *xyz, const double *mass, int64_t n)
{
    deposit *d = user;
    const int64_t g = d->g;
    for (int64_t p = 0; p < n; p++) {
        const double m = mass ? mass[p] : d->mass_table[type];
        d->msum += m;
        d->m2sum += (long double)m * m;
        int64_t lo[3], hi[3];
        double w[3][2];
        for (int c = 0; c < 3; c++) {
            double f;
            cic_cells(d, xyz[3 * p + c], &lo[c], &hi[c], &f);
            w[c][0] = 1 - f, w[c][1] = f;
        }
        if (d->axis >= 0) {
            const int a = d->axis, u = a == 0 ? 1 : 0, v = a == 2 ? 1 : 2;
            const double wa = (lo[a] == d->plane ? w[a][0] : 0) + (hi[a] == d->plane ? w[a][1] : 0);
            if (wa == 0)
                continue;
            for (int j = 0; j < 2; j++)
                for (int i = 0; i < 2; i++)
                    d->rho[(j ? hi[v] : lo[v]) * g + (i ? hi[u] : lo[u])] +=
                        m * wa * w[u][i] * w[v][j];
            continue;
        }
        for (int k = 0; k < 2; k++)
            for (int j = 0; j < 2; j++) {
                const double wjk = m * w[1][j] * w[2][k];
                double *row = d->rho + ((k ? hi[2] : lo[2]) * g + (j ? hi[1] : lo[1])) * g;
                row[lo[0]] += wjk * w[0][0];
                row[hi[0]] += wjk * w[0][1];
            }
    }
    return 0;
}

/* Deposits every particle into d->rho (zeroed here, cells as d says).
 * 0 or EXIT_FAIL after one message. */
static int deposit_all(const char *cmd, const char *file, const io_psnap *s, deposit *d,
                       int64_t cells)
{
    char err[1024], esc[2048];
    memset(d->rho, 0, (size_t)cells * sizeof *d->rho);
    d->cells_per_length = (double)d->g / s->box;
    d->mass_table = s->mass_table;
    if (io_psnap_each(s, PARTICLES_CHUNK, deposit_rows, d, err, sizeof err)) {
        cli_errline("%s: %s", cmd, tbrf_io_escape(err, esc, sizeof esc));
        return EXIT_FAIL;
    }
    if (!(d->msum > 0)) {
        cli_errline("%s: %s: the particles have no mass (MassTable and Masses all 0): nothing "
                    "to deposit", cmd, file);
        return EXIT_FAIL;
    }
    return 0;
}

/* The grid's side from --grid (0: def), checked: 0 or EXIT_USAGE. */
static int grid_side(const char *cmd, int64_t grid, int64_t def, int64_t max, int64_t *g)
{
    *g = grid > 0 ? grid : def;
    if (*g < 2 || *g > max) {
        cli_errline("%s: --grid %lld: the deposit grid needs 2 .. %lld cells a side", cmd,
                    (long long)*g, (long long)max);
        return EXIT_USAGE;
    }
    return 0;
}

/* The length unit of a file of tbrf's (length_unit_per_mpc_h): "kpc/h",
 * "Mpc/h", or NULL. */
static const char *length_unit(const io_psnap *s)
{
    double u;
    if (io_psnap_number(s, "length_unit_per_mpc_h", &u))
        return NULL;
    return u == 1000.0 ? "kpc/h" : u == 1.0 ? "Mpc/h" : NULL;
}

int particles_slice(const char *file, const io_psnap *s, int axis, int64_t *index, int64_t grid,
                    int quiet, plot_slice_in *in, double **v)
{
    int64_t g;
    char err[1024], esc[2048];
    *v = NULL;
    const int64_t side = lattice_side(s);
    int rc = grid_side("preview", grid, side < 2 ? 2 : side, PARTICLES_MAX_SIDE, &g);
    if (rc)
        return rc;
    if (*index >= g) {
        cli_errline("preview: --index %lld: the deposit grid has planes 0 .. %lld across %c",
                    (long long)*index, (long long)g - 1, 'x' + axis);
        return EXIT_USAGE;
    }
    if (*index < 0)
        *index = g / 2;
    const double cells = (double)g * (double)g;
    if (tbrf_io_budget_check(file, "the preview's plane", 8.0 * cells, err, sizeof err)) {
        cli_errline("preview: %s", tbrf_io_escape(err, esc, sizeof esc));
        return EXIT_FAIL;
    }
    deposit d = {calloc((size_t)cells, sizeof(double)), g, axis, *index, 0, NULL, 0, 0};
    if (!d.rho) {
        cli_errline("preview: out of memory for a %lld x %lld plane", (long long)g, (long long)g);
        return EXIT_FAIL;
    }
    if ((rc = deposit_all("preview", file, s, &d, (int64_t)cells)) != 0) {
        free(d.rho);
        return rc;
    }
    /* density over the mean: the mean cell holds msum / g^3 */
    const double mean = (double)d.msum / ((double)g * cells);
    for (int64_t i = 0; i < (int64_t)cells; i++)
        d.rho[i] /= mean;
    const double h = s->box / (double)g;
    static const char NAMES[] = "xyz";
    in->file = file;
    in->unit = length_unit(s);
    in->w = in->h = g;
    in->x0 = in->y0 = 0.5 * h;
    in->dx = in->dy = h;
    in->xname = NAMES[axis == 0 ? 1 : 0];
    in->yname = NAMES[axis == 2 ? 1 : 2];
    in->sname = NAMES[axis];
    in->coord = (*index + 0.5) * h;
    in->index = *index;
    in->dim = 3;
    static char what[128]; /* the title's part, drawn after this returns */
    snprintf(what, sizeof what, "%lld particles, CIC on %lld^3 cells", (long long)s->n,
             (long long)g);
    in->what = what;
    in->label = "mass density / mean";
    *v = d.rho;
    if (!quiet)
        fprintf(stderr, "preview: %s: %lld particles (%s, %d file%s), mass deposited by cloud-in-cell "
            "on %lld^3 cells, plane %lld across %c\n", tbrf_io_escape(file, esc, sizeof esc),
            (long long)s->n, format_name(s->format), s->nfiles, s->nfiles > 1 ? "s" : "",
            (long long)g, (long long)*index, NAMES[axis]);
    return 0;
}

/* ------------------------------------------------------------ spectrum */

/* The linear spectrum the file records, in its units. */
typedef struct pmodel {
    tbrf_model *m;     /* the z = 0 spectrum (k in h/Mpc); NULL: none (why says why) */
    double lpm;        /* length units per Mpc/h */
    double kcut;       /* modes beyond it were not drawn (the particle Nyquist sphere) */
    double growth, growth_recorded;
    char desc[1400], why[1300];
} pmodel;

/* The recorded table's file: the name as recorded (the folder the IC was
 * made in), else beside the IC file. Malloc'ed, or NULL when neither
 * is a file. */
static char *table_path(const char *file, const char *name)
{
    struct stat st;
    if (stat(name, &st) == 0 && S_ISREG(st.st_mode))
        return strdup(name);
    const char *slash = strrchr(file, '/');
    if (name[0] == '/' || !slash)
        return NULL;
    size_t n = (size_t)(slash - file) + 1 + strlen(name) + 1;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%.*s%s", (int)(slash - file) + 1, file, name);
    if (p && stat(p, &st) == 0 && S_ISREG(st.st_mode))
        return p;
    free(p);
    return NULL;
}

/* The --table the IC was made from, read again: the recorded file if it
 * is there and has the recorded digest. 0 with pm->m, or -1 with why. */
static int table_model(const char *file, const io_psnap *s, const char *name, pmodel *pm)
{
    char *path = table_path(file, name), *want = NULL, got[17];
    int rc = -1;
    io_psnap_text(s, "power_file_digest", &want);
    if (!path)
        snprintf(pm->why, sizeof pm->why, "the recorded spectrum is the table '%.1000s', not "
                 "found (as named, or beside the file)", name);
    else if (want && (cli_file_digest(path, got) != 0 || strcmp(got, want) != 0))
        snprintf(pm->why, sizeof pm->why, "the table %.1000s is not the one the IC was made "
                 "from (its digest %s, recorded %.20s)", path, got, want);
    else {
        int st = tbrf_model_table_file(path, &pm->m);
        if (st == TBRF_OK)
            st = tbrf_model_set_amplitude(pm->m, 1.0); /* the rows as written */
        if (st != TBRF_OK)
            snprintf(pm->why, sizeof pm->why, "the table %.1000s: %.200s", path,
                     pm->m ? tbrf_model_message(pm->m) : tbrf_strerror(st));
        rc = st == TBRF_OK ? 0 : -1;
    }
    free(path);
    free(want);
    return rc;
}

/* Rebuilds the z = 0 model of `tbrf arepo cosmo` from the record: the
 * library's Eisenstein & Hu fit, or the --table read again; normalised to
 * sigma8 unless its amplitude was kept. pm->m NULL with the reason when
 * the record has none. */
static void model_build(const char *file, const io_psnap *s, pmodel *pm)
{
    memset(pm, 0, sizeof *pm);
    char *ps = NULL, *norm = NULL, *gas = NULL;
    double om, ob, h, ns, s8, z, ol, lpm, g;
    int rec = s->record && io_psnap_text(s, "power_spectrum", &ps) == 0 &&
              io_psnap_number(s, "omega_m", &om) == 0 && io_psnap_number(s, "omega_b", &ob) == 0 &&
              io_psnap_number(s, "hubble", &h) == 0 && io_psnap_number(s, "n_s", &ns) == 0 &&
              io_psnap_number(s, "sigma8", &s8) == 0 && io_psnap_number(s, "redshift", &z) == 0 &&
              io_psnap_number(s, "omega_lambda", &ol) == 0 &&
              io_psnap_number(s, "length_unit_per_mpc_h", &lpm) == 0 &&
              io_psnap_number(s, "particles_per_axis", &g) == 0;
    io_psnap_text(s, "normalisation", &norm);
    io_psnap_text(s, "gas_power_spectrum", &gas);
    const int eh = rec && (strcmp(ps, "eisenstein_hu") == 0 || strcmp(ps, "eisenstein_hu_nowiggle") == 0);
    const int kept = norm && strcmp(norm, "sigma8") != 0;
    const int wiggles = eh && strcmp(ps, "eisenstein_hu") == 0 && ob > 0;
    int st = TBRF_OK;
    if (!rec)
        snprintf(pm->why, sizeof pm->why, "the file records no linear spectrum (not written by "
                 "tbrf arepo cosmo)");
    else if (gas)
        snprintf(pm->why, sizeof pm->why, "the gas follows its own recorded spectrum '%.1000s'",
                 gas);
    else if (strstr(ps, " transfer, "))
        snprintf(pm->why, sizeof pm->why, "the recorded spectrum is a transfer function's "
                 "(%.1000s), not rebuilt here", ps);
    else if (eh)
        st = tbrf_model_eisenstein_hu(om, ob, h, ns, 2.7255, wiggles, 1e-5, 1e3, &pm->m);
    else
        table_model(file, s, ps, pm);
    if (st == TBRF_OK && pm->m && !kept)
        st = tbrf_model_normalize_sigma(pm->m, 8.0, s8);
    if (st == TBRF_OK && pm->m)
        st = tbrf_cosmo_growth(om, ol, z, &pm->growth);
    if (st != TBRF_OK) {
        snprintf(pm->why, sizeof pm->why, "the recorded cosmology gives no model: %.200s",
                 pm->m ? tbrf_model_message(pm->m) : tbrf_strerror(st));
        tbrf_model_destroy(pm->m);
        pm->m = NULL;
    }
    if (pm->m) {
        char what[1100];
        if (eh)
            snprintf(what, sizeof what, "Eisenstein & Hu%s (omega_m %g, omega_b %g, h %g, n_s %g, "
                     "T_cmb 2.7255 K)", wiggles ? "" : " without wiggles", om, ob, h, ns);
        else
            snprintf(what, sizeof what, "the table %.1000s", ps);
        pm->lpm = lpm;
        pm->kcut = M_PI * g / s->box;
        io_psnap_number(s, "growth_factor", &pm->growth_recorded);
        snprintf(pm->desc, sizeof pm->desc, "the linear P(k) the file records at z = %g: %s, %s "
                 "at z = 0 times D(z)^2, D = %.6g (tbrf_cosmo_growth; omega_m %g, omega_lambda "
                 "%g), 0 beyond the particle Nyquist pi G/L = %.6g", z, what,
                 kept ? "its own amplitude" : "sigma8", pm->growth, om, ol, pm->kcut);
        if (!kept)
            snprintf(pm->desc + strlen(pm->desc), sizeof pm->desc - strlen(pm->desc),
                     " (sigma8 %g)", s8);
    }
    free(ps);
    free(norm);
    free(gas);
}

static double model_at(const pmodel *pm, double k)
{
    if (!pm->m)
        return NAN;
    if (k > pm->kcut)
        return 0.0;
    const double l3 = pm->lpm * pm->lpm * pm->lpm;
    return pm->growth * pm->growth * tbrf_model_spectrum(pm->m, 3, k * pm->lpm) * l3;
}

/* The model per shell: the mean over the shell's modes where the shells
 * are few modes wide (a shell's mean of a curved P(k) is not P at its
 * mean k: 7% apart in the first shell of a CDM box), P at the mean k
 * beyond (there the difference is of order (dk/k)^2). Bins as
 * tbrf_measure_spectrum's: bin b holds |m| dk in [(b + 1/2) dk, (b + 3/2)
 * dk), integer vectors m of the box's fundamental dk. */
static void model_shells(const pmodel *pm, const tbrf_spectrum *sp, double *mp)
{
    enum { EXACT = 24 };
    const int nb = sp->nbins < EXACT ? sp->nbins : EXACT;
    double sum[EXACT] = {0}, cnt[EXACT] = {0};
    const int r = nb + 2;
    for (int z = -r; z <= r; z++)
        for (int y = -r; y <= r; y++)
            for (int x = -r; x <= r; x++) {
                const double m = sqrt((double)x * x + (double)y * y + (double)z * z);
                const int b = (int)floor(m + 0.5) - 1;
                if (b < 0 || b >= nb)
                    continue;
                sum[b] += model_at(pm, m * sp->dk);
                cnt[b] += 1;
            }
    for (int b = 0; b < sp->nbins; b++)
        mp[b] = b < nb && cnt[b] > 0 ? sum[b] / cnt[b] : model_at(pm, sp->k[b]);
}

/* The per-mode correction: shot noise, then the CIC window. */
typedef struct pcorr {
    double half_h; /* H/2 */
    double shot;   /* V sum m^2 / (sum m)^2, or 0 */
} pcorr;

static double sinc(double x)
{
    return fabs(x) < 1e-8 ? 1.0 : sin(x) / x;
}

static double correct_mode(const double k[3], double p, void *user)
{
    const pcorr *c = user;
    double w = 1, alias = 1;
    for (int a = 0; a < 3; a++) {
        const double x = k[a] * c->half_h, s = sinc(x), sn = sin(x);
        w *= s * s * s * s;
        alias *= 1 - 2.0 / 3.0 * sn * sn;
    }
    return (p - c->shot * alias) / w;
}

/* Whether Poisson shot noise applies: by the record (a displaced lattice
 * or glass of tbrf's has none) unless shot says. */
static int shot_applies(const io_psnap *s, int shot, char *why, size_t n, int *is_lattice)
{
    double g, glass = NAN;
    char *points = NULL;
    io_psnap_text(s, "points", &points); /* tbrf arepo gas's mesh-generating points */
    const int gas_lattice = points && (strcmp(points, "lattice") == 0 ||
                                       strcmp(points, "jittered") == 0);
    free(points);
    const int lattice = io_psnap_number(s, "particles_per_axis", &g) == 0 || gas_lattice;
    io_psnap_number(s, "glass_particles", &glass);
    *is_lattice = lattice && isnan(glass);
    if (shot == PARTICLES_SHOT_NONE)
        snprintf(why, n, "not subtracted (--shot-noise none)");
    else if (shot == PARTICLES_SHOT_POISSON)
        snprintf(why, n, "Poisson, subtracted (--shot-noise poisson)");
    else if (lattice)
        snprintf(why, n, "not subtracted: the file records a %s, which has no Poisson shot "
                 "noise (--shot-noise poisson subtracts it anyway)",
                 gas_lattice ? "lattice (jittered or not) of mesh-generating points"
                 : isnan(glass) ? "lattice displaced by the linear field"
                                : "glass displaced by the linear field");
    else
        snprintf(why, n, "Poisson, subtracted: the file records no lattice or glass "
                 "(--shot-noise none keeps it)");
    return shot == PARTICLES_SHOT_POISSON || (shot == PARTICLES_SHOT_AUTO && !lattice);
}

/* The comparison over the clean shells (k <= klim): the worst and the
 * pooled deviation in units of the estimator's scatter sqrt(2/modes). */
static void print_check(const tbrf_spectrum *sp, const double *mp, double klim)
{
    double worst = 0, num = 0, den = 0, var = 0;
    int used = 0;
    for (int b = 0; b < sp->nbins; b++) {
        if (!(sp->k[b] <= klim) || !(mp[b] > 0) || sp->modes[b] < 2)
            continue;
        const double se = mp[b] * sqrt(2.0 / sp->modes[b]);
        worst = fmax(worst, fabs(sp->p[b] - mp[b]) / se);
        num += sp->p[b] * sp->modes[b];
        den += mp[b] * sp->modes[b];
        var += se * se * sp->modes[b] * sp->modes[b];
        used++;
    }
    if (used == 0) {
        printf("model check: no shell with k <= %.6g\n", klim);
        return;
    }
    printf("model check: %d shells with k <= %.6g: worst |P - P_model| / (P_model sqrt(2/modes)) "
           "%.2f, pooled ratio %.4f (z = %.2f)\n", used, klim, worst, num / den,
           (num - den) / sqrt(var));
}

/* The table (and nothing else) on stdout. */
static void print_table(const char *file, const io_psnap *s, const pmodel *pm, int64_t g,
                        int lattice, const char *shot_why, double shot, const tbrf_spectrum *sp,
                        const double *mp, double klim)
{
    char esc[2048];
    printf("# tbrf spectrum %s (particles: %lld, %s, %d file%s)\n",
           tbrf_io_escape(file, esc, sizeof esc), (long long)s->n, format_name(s->format),
           s->nfiles, s->nfiles > 1 ? "s" : "");
    if (pm->m) {
        printf("# model: %s\n", pm->desc);
        if (isfinite(pm->growth_recorded) &&
            fabs(pm->growth_recorded - pm->growth) > 1e-6 * fabs(pm->growth))
            printf("# note: the file records growth_factor %.9g; the model uses %.9g\n",
                   pm->growth_recorded, pm->growth);
        double fixed = 0;
        if (io_psnap_number(s, "fixed_amplitude", &fixed) == 0 && fixed == 1)
            printf("# note: fixed amplitudes: every mode has the model's |delta_k|, so the "
                   "shells scatter far less than sqrt(2/modes)\n");
    } else
        printf("# model: none (%s): the measurement alone, no P_model or ratio column\n", pm->why);
    const double x = klim * s->box / (2.0 * (double)g);
    printf("# deposit: mass by cloud-in-cell on %lld^3 cells of %.6g, the window prod "
           "sinc^4(k_i H/2) divided out mode by mode", (long long)g, s->box / (double)g);
    if (lattice)
        printf("; a displaced lattice deposits as sum_i n_i^2 sinc(k_i H/2) prod_(j != i) "
               "cos(k_j H/2) instead, so its deconvolved power runs high by (kH/2)^2/15 over a "
               "shell (%.2g%% at k = %.6g)", 100 * x * x / 15, klim);
    printf("\n");
    printf("# shot noise: %s", shot_why);
    if (shot > 0)
        printf("; V sum m^2/(sum m)^2 = %.6g times CIC's alias sum prod (1 - 2/3 sin^2(k_i H/2))",
               shot);
    printf("\n# shell-averaged P(k), no window (periodic box), bins of dk = %.6g; cosmology "
           "convention; the clean range: k <= %.6g (half the Nyquist frequency of the deposit "
           "grid%s)\n", sp->dk, klim, pm->m ? " and of the particles" : "");
    if (pm->m)
        printf("# %-12s %-13s %-13s %-9s %s\n", "k", "P_measured", "P_model", "ratio", "modes");
    else
        printf("# %-12s %-13s %s\n", "k", "P_measured", "modes");
    for (int b = 0; b < sp->nbins; b++) {
        if (pm->m)
            printf("  %-12.6g %-13.6g %-13.6g %-9.4g %.0f\n", sp->k[b], sp->p[b], mp[b],
                   mp[b] > 0 ? sp->p[b] / mp[b] : NAN, sp->modes[b]);
        else
            printf("  %-12.6g %-13.6g %.0f\n", sp->k[b], sp->p[b], sp->modes[b]);
    }
    if (pm->m)
        print_check(sp, mp, klim);
}

/* The picture: both curves up to the deposit's Nyquist frequency. */
static int plot_particles(const char *file, const io_psnap *s, const pmodel *pm,
                          const tbrf_spectrum *sp, const double *mp, double knyq, const char *png)
{
    plot_spectrum_in in = {.file = file,
                           .model = pm->m ? "linear P(k) recorded (tbrf arepo cosmo)" : NULL,
                           .unit = length_unit(s),
                           .dim = 3,
                           .k = sp->k,
                           .p = sp->p,
                           .model_p = mp,
                           .knyq = knyq,
                           .klo = NAN,
                           .khi = NAN,
                           .slope = NAN,
                           .slope_err = NAN,
                           .model_slope = NAN,
                           .what = "particles, CIC",
                           .sol_frac = NAN,
                           .sol_expected = NAN};
    while (in.n < sp->nbins && sp->k[in.n] <= knyq * (1 + 1e-12))
        in.n++;
    char err[1024], esc[2048];
    if (plot_spectrum(png, &in, err, sizeof err)) {
        cli_errline("%s", tbrf_io_escape(err, esc, sizeof esc));
        return EXIT_FAIL;
    }
    return 0;
}

/* Deposits the whole grid and measures it: 0 with *sp, or an exit status. */
static int measure_particles(const char *file, const io_psnap *s, int64_t g, int poisson,
                             double *shot, tbrf_spectrum *sp)
{
    char err[1024], esc[2048];
    const double cells = (double)g * (double)g * (double)g;
    /* the grid, the transform's padded copy and the shells */
    if (tbrf_io_budget_check(file, "the particles' deposit grid and its transform",
                             8.0 * cells + 8.0 * (double)(g + 2) * (double)g * (double)g, err,
                             sizeof err)) {
        cli_errline("spectrum: %s", tbrf_io_escape(err, esc, sizeof esc));
        return EXIT_FAIL;
    }
    deposit d = {malloc((size_t)cells * sizeof(double)), g, -1, 0, 0, NULL, 0, 0};
    if (!d.rho) {
        cli_errline("spectrum: out of memory for %lld^3 cells", (long long)g);
        return EXIT_FAIL;
    }
    int rc = deposit_all("spectrum", file, s, &d, (int64_t)cells);
    if (rc) {
        free(d.rho);
        return rc;
    }
    const double mean = (double)d.msum / cells;
    for (int64_t i = 0; i < (int64_t)cells; i++)
        d.rho[i] = d.rho[i] / mean - 1.0;
    const double V = s->box * s->box * s->box;
    *shot = poisson ? V * (double)(d.m2sum / (d.msum * d.msum)) : 0.0;
    const double h = s->box / (double)g;
    pcorr c = {0.5 * h, *shot};
    const int64_t n[3] = {g, g, g};
    const double spacing[3] = {h, h, h};
    rc = tbrf_measure_spectrum_modes(d.rho, n, spacing, TBRF_WINDOW_NONE, correct_mode, &c, sp);
    free(d.rho);
    if (rc) {
        cli_errline("spectrum: measuring the spectrum failed (memory or FFTW)");
        return EXIT_FAIL;
    }
    return 0;
}

int particles_spectrum(const char *file, const io_psnap *s, int64_t grid, int shot,
                       const char *png, int quiet)
{
    int64_t side = lattice_side(s), g;
    int64_t def = 2 * side > PARTICLES_DEFAULT_GRID_MAX ? PARTICLES_DEFAULT_GRID_MAX : 2 * side;
    int rc = grid_side("spectrum", grid, def < 16 ? 16 : def, 1024, &g);
    if (rc)
        return rc;
    char why[256];
    int lattice = 0;
    const int poisson = shot_applies(s, shot, why, sizeof why, &lattice);
    double pshot = 0;
    tbrf_spectrum sp;
    if ((rc = measure_particles(file, s, g, poisson, &pshot, &sp)) != 0)
        return rc;
    pmodel pm;
    model_build(file, s, &pm);
    double *mp = malloc((size_t)sp.nbins * sizeof *mp);
    if (!mp) {
        cli_errline("out of memory");
        tbrf_spectrum_free(&sp);
        tbrf_model_destroy(pm.m);
        return EXIT_FAIL;
    }
    model_shells(&pm, &sp, mp);
    const double knyq = M_PI * (double)g / s->box;
    double klim = 0.5 * knyq;
    if (pm.m)
        klim = fmin(klim, 0.5 * pm.kcut);
    if (png)
        rc = plot_particles(file, s, &pm, &sp, mp, knyq, png);
    if (png && rc == 0 && !quiet)
        plot_say_wrote(png);
    if (rc == 0)
        print_table(file, s, &pm, g, lattice, why, pshot, &sp, mp, klim);
    free(mp);
    tbrf_spectrum_free(&sp);
    tbrf_model_destroy(pm.m);
    return rc;
}
