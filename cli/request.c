/* request.c — the models the tool knows, and the one step from a request
 * (command line or file attributes alike) to a model and a plan. */
#define _POSIX_C_SOURCE 200809L

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>

#include "args.h"
#include "isotropy.h"
#include "request.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* ------------------------------------------------------------- models */

/* The models are the library's kinds (tbrf_model_kind_name,
 * tbrf_model_kind_params): the one table of models is in the core, so a
 * new kind reaches --model, the option checks and the files by itself.
 * The command's copy of the table is filled once from it. */
enum { MAX_MODELS = 32 };
static cli_model MODELS[MAX_MODELS];
static int NMODELS = -1;

static void load_models(void)
{
    if (NMODELS >= 0)
        return;
    int n = 0;
    for (const char *name; n < MAX_MODELS && (name = tbrf_model_kind_name(n)) != NULL; n++) {
        int takes = 0, needs = 0;
        tbrf_model_kind_params(name, &takes, &needs);
        MODELS[n] = (cli_model){name, (unsigned)takes, (unsigned)needs};
    }
    NMODELS = n;
}

const cli_model *cli_model_find(const char *name)
{
    load_models();
    for (int i = 0; name && i < NMODELS; i++)
        if (strcmp(name, MODELS[i].name) == 0)
            return &MODELS[i];
    return NULL;
}

const char *cli_model_names(void)
{
    static char names[512];
    load_models();
    if (!names[0])
        for (int i = 0; i < NMODELS; i++)
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s",
                     i ? ", " : "", MODELS[i].name);
    return names;
}

void cli_model_usage(void)
{
    load_models();
    for (int i = 0; i < NMODELS; i++) {
        const cli_model *k = &MODELS[i];
        const char *sum = tbrf_model_kind_summary(k->name);
        printf("  %-12s %s:\n              ", k->name, sum ? sum : "");
        for (int b = 0; tbrf_model_param_name(b); b++) {
            const unsigned bit = 1u << b;
            const char *p = tbrf_model_param_name(b);
            const int table = bit == MP_TABLE, band = bit == MP_KMIN || bit == MP_KMAX;
            if (k->required & bit)
                printf(" --%s %s", table ? "table" : p, table ? "FILE" : "X");
            else if ((k->allowed & bit) && !band)
                printf(" [--%s X]", p);
            else if ((k->allowed & bit) && band && (k->required & (MP_KMIN | MP_KMAX)))
                printf(" [--%s X]", p);
        }
        printf("\n");
    }
}

/* The value the request holds for parameter number i (named
 * tbrf_model_param_name(i)), NaN where it has none: a file may record
 * values of parameters its model does not take (NaN when written by this
 * tool), and those are not passed on. */
static double param_value(const tbrf_io_meta *m, const cli_model *k, int i)
{
    const unsigned bit = 1u << i;
    if (!(k->allowed & bit))
        return NAN;
    return i < TBRF_IO_NPARAM && bit != MP_TABLE ? m->param[i] : NAN;
}

/* The kind from its parameters by name (tbrf_model_make_params). */
static int make_by_name(const tbrf_io_meta *m, const cli_model *k, tbrf_model **out)
{
    const char *names[32];
    double values[32];
    int n = 0;
    for (int i = 0; tbrf_model_param_name(i) && n < 32; i++) {
        const double v = param_value(m, k, i);
        if (!isnan(v))
            names[n] = tbrf_model_param_name(i), values[n++] = v;
    }
    return tbrf_model_make_params(k->name, n, names, values, out);
}

int cli_model_make(const tbrf_io_meta *m, tbrf_model **out)
{
    *out = NULL;
    const cli_model *k = cli_model_find(m->model_kind);
    if (!k)
        return TBRF_ERR_INVALID;
    int st;
    if (k->allowed & MP_TABLE) {
        /* Rows recorded in a file are used as they are; otherwise the
         * library parses the text table (the only parser of that format). */
        st = m->table_n > 0 && m->table_k && m->table_p
                 ? tbrf_model_table(m->table_n, m->table_k, m->table_p, out)
                 : tbrf_model_table_file(m->table_file, out);
        /* model_kmin/model_kmax recorded for a table are its band */
        const double kmin = m->param[TBRF_IO_P_KMIN], kmax = m->param[TBRF_IO_P_KMAX];
        if (st == TBRF_OK && (!isnan(kmin) || !isnan(kmax)))
            st = tbrf_model_set_band(*out, isnan(kmin) ? 0.0 : kmin, isnan(kmax) ? INFINITY : kmax);
    } else {
        st = make_by_name(m, k, out);
    }
    if (st != TBRF_OK)
        return st;
    /* anisotropy (--anis, --angles; attributes model_anis, model_angles):
     * a file records both or neither */
    if (!isnan(m->anis[0]) || !isnan(m->angles[0])) {
        const double one[3] = {1, 1, 1}, zero[3] = {0, 0, 0};
        st = tbrf_model_set_anisotropy(*out, isnan(m->anis[0]) ? one : m->anis,
                                       isnan(m->angles[0]) ? zero : m->angles);
        if (st != TBRF_OK)
            return st;
    }
    return m->by_variance ? tbrf_model_set_variance(*out, m->variance)
                          : tbrf_model_set_amplitude(*out, m->amplitude);
}

/* ------------------------------------------------------------ requests */

void request_init(request *r)
{
    memset(r, 0, sizeof *r);
    tbrf_io_meta_init(&r->meta);
}

void request_free(request *r)
{
    cli_unguard_temp();
    tbrf_destroy(r->plan);
    tbrf_model_destroy(r->model);
    tbrf_model_destroy(r->target);
    free(r->xyz);
    tbrf_io_points_close(r->pts);
    free(r->table_k);
    free(r->table_p);
    free(r->command);
    tbrf_io_meta_free(&r->meta);
    memset(r, 0, sizeof *r);
}

char *request_command(int argc, char **argv)
{
    size_t len = sizeof "tbrf";
    for (int i = 0; i < argc; i++)
        len += strlen(argv[i]) + 3;
    char *s = malloc(len);
    if (!s)
        return NULL;
    strcpy(s, "tbrf");
    for (int i = 0; i < argc; i++) {
        int quote = argv[i][0] == '\0' || strpbrk(argv[i], " \t'\"") != NULL;
        strcat(s, " ");
        if (quote)
            strcat(s, "'");
        strcat(s, argv[i]);
        if (quote)
            strcat(s, "'");
    }
    return s;
}

int request_split_command(char *s, char **w, int max)
{
    int n = 0;
    while (*s) {
        while (*s == ' ')
            s++;
        if (!*s)
            break;
        if (n == max)
            return -1;
        if (*s == '\'') {
            char *end = strchr(s + 1, '\'');
            if (!end || (end[1] && end[1] != ' '))
                return -1;
            *end = '\0';
            w[n++] = s + 1;
            s = end + 1;
        } else {
            w[n++] = s;
            s += strcspn(s, " ");
            if (*s)
                *s++ = '\0';
        }
    }
    return n;
}

/* The library's detailed message, or the status text when it has none. */
static const char *model_msg(const tbrf_model *model, int status)
{
    const char *m = model ? tbrf_model_message(model) : NULL;
    return (m && m[0]) ? m : tbrf_strerror(status);
}

const char *cli_plan_msg(const tbrf_plan *plan, int status)
{
    const char *m = plan ? tbrf_plan_message(plan) : NULL;
    return (m && m[0]) ? m : tbrf_strerror(status);
}

/* The model, and for a table the rows the library parsed, which the file
 * records so that it can be regenerated without the text file. */
static int make_model(request *r)
{
    tbrf_io_meta *m = &r->meta;
    int st = cli_model_make(m, &r->model);
    if (st != TBRF_OK) {
        /* the library's message names the kind first: say it once */
        const char *kind = m->model_kind ? m->model_kind : "(none)", *msg = model_msg(r->model, st);
        size_t kl = strlen(kind);
        if (strncmp(msg, kind, kl) == 0 && msg[kl] == ':' && msg[kl + 1] == ' ')
            msg += kl + 2;
        cli_errline("model %s: %s", kind, msg);
        /* a parameter out of the model's range given on the command line
         * is a usage error, as one the option parser refuses (--nu 0);
         * a recorded one or a table file is a bad input file */
        return !r->input && st == TBRF_ERR_INVALID ? EXIT_USAGE : EXIT_FAIL;
    }
    size_t n = 0;
    if (tbrf_model_table_data(r->model, &n, NULL, NULL) != TBRF_OK)
        return 0; /* not a table */
    r->table_k = malloc(n * sizeof *r->table_k);
    r->table_p = malloc(n * sizeof *r->table_p);
    if (!r->table_k || !r->table_p ||
        tbrf_model_table_data(r->model, &n, r->table_k, r->table_p) != TBRF_OK) {
        cli_errline("out of memory");
        return EXIT_FAIL;
    }
    m->table_n = n;
    m->table_k = r->table_k;
    m->table_p = r->table_p;
    return 0;
}

static const char AXES[] = "xyz";

/* Where a given or recorded domain comes from, for messages. */
static const char *domain_name(const request *r, char *buf, size_t len)
{
    if (r->input)
        snprintf(buf, len, "the domain recorded in %s", r->input);
    else
        snprintf(buf, len, "--domain");
    return buf;
}

/* A given or recorded domain must be a box: finite bounds, X0 < X1 on
 * every axis (an empty or inverted axis has no lines to project on). */
static int check_domain_box(const request *r)
{
    const tbrf_io_meta *m = &r->meta;
    char name[4200];
    if (r->domain_dim != m->dim) {
        cli_errline("%s has %d axes but the geometry is %dD", domain_name(r, name, sizeof name),
                    r->domain_dim, m->dim);
        return EXIT_USAGE;
    }
    for (int c = 0; c < m->dim; c++)
        if (!isfinite(m->lo[c]) || !isfinite(m->hi[c]) || !(m->lo[c] < m->hi[c])) {
            cli_errline("%s: axis %c is [%g, %g], %s", domain_name(r, name, sizeof name), AXES[c],
                        m->lo[c], m->hi[c],
                        !isfinite(m->lo[c]) || !isfinite(m->hi[c])
                            ? "not finite"
                            : m->lo[c] == m->hi[c] ? "empty (X1 must exceed X0)"
                                                   : "inverted (X1 must exceed X0)");
            return EXIT_USAGE;
        }
    return 0;
}

/* The geometry (grid cells or points, spanning [glo, ghi]) must lie in
 * the given or recorded domain: the plan's lines cover the domain only. */
static int check_inside(const request *r, const double *glo, const double *ghi, const char *what)
{
    const tbrf_io_meta *m = &r->meta;
    char name[4200];
    for (int c = 0; c < m->dim; c++)
        if (!(glo[c] >= m->lo[c] && ghi[c] <= m->hi[c])) {
            cli_errline("%s span [%.17g, %.17g] along %c, outside %s [%.17g, %.17g]", what, glo[c],
                        ghi[c], AXES[c], domain_name(r, name, sizeof name), m->lo[c], m->hi[c]);
            return EXIT_FAIL;
        }
    return 0;
}

/* Domain and resolution of a grid: the given ones, else the library's
 * defaults for its cells (tbrf_grid_default_domain: the first and last
 * cell along each axis, the finest spacing). */
static int grid_domain(request *r)
{
    tbrf_io_meta *m = &r->meta;
    double glo[3], ghi[3], rmin;
    if (tbrf_grid_default_domain(m->dim, m->origin, m->spacing, m->n, glo, ghi, &rmin) != TBRF_OK) {
        cli_errline("--grid/--spacing/--origin: the last cell lies beyond double precision");
        return EXIT_USAGE;
    }
    if (isnan(m->resolution))
        m->resolution = rmin;
    if (r->domain_dim)
        return check_domain_box(r) ? EXIT_USAGE : check_inside(r, glo, ghi, "the grid's cells");
    for (int c = 0; c < 3; c++) {
        m->lo[c] = glo[c];
        m->hi[c] = ghi[c];
    }
    return 0;
}

/* Widens the points' box [lo, hi] by n positions (tbrf_points_bounds,
 * the library's default domain), refusing a NaN or infinite coordinate;
 * first: the index of xyz[0] among the points, for the message. */
static int points_box(const request *r, int64_t first, int64_t n, const double *xyz, double *lo,
                      double *hi)
{
    int64_t bad;
    if (tbrf_points_bounds(r->meta.dim, n, xyz, lo, hi, &bad) == TBRF_OK)
        return 0;
    const char *file = r->meta.points_file ? r->meta.points_file : "points";
    if (bad >= 0)
        cli_errline("%s: point %lld has a coordinate that is not finite (NaN or infinite)", file,
                    (long long)(first + bad));
    else
        cli_errline("%s: the points cannot be read as %dD positions", file, r->meta.dim);
    return EXIT_FAIL;
}

/* Domain and resolution of a points run: the given domain or the
 * points' box, and unless given, the library's default resolution for
 * them (tbrf_points_resolution: the mean spacing, clamped). */
static int points_domain(request *r, const double *blo, const double *bhi)
{
    tbrf_io_meta *m = &r->meta;
    if (r->domain_dim) {
        int rc = check_domain_box(r);
        if (rc || (rc = check_inside(r, blo, bhi, "the points")))
            return rc;
    } else {
        for (int c = 0; c < 3; c++) {
            m->lo[c] = c < m->dim ? blo[c] : 0.0;
            m->hi[c] = c < m->dim ? bhi[c] : 0.0;
        }
    }
    double res;
    if (tbrf_points_resolution(m->dim, m->npoints, m->lo, m->hi, &res) != TBRF_OK) {
        const char *file = m->points_file ? m->points_file : "points";
        if (m->npoints == 0)
            cli_errline("%s: no points to take a domain from: give --domain", file);
        for (int c = 0; c < m->dim && m->npoints > 0; c++)
            if (!isfinite(m->hi[c] - m->lo[c]))
                cli_errline("%s: the points span [%g, %g] along axis %d, too wide for double "
                            "precision (the extent overflows)", file, m->lo[c], m->hi[c], c);
        return EXIT_FAIL;
    }
    if (isnan(m->resolution)) /* not given, nor recorded */
        m->resolution = res;
    return 0;
}

/* Refuses a grid whose file cannot fit on the output's file system: the
 * library happily streams 10^15 cells, which would run for days and then
 * fail. The size is the file's real one (whole chunks, tbrf_io_grid_bytes).
 * Compression is no way around it: deflate shrinks a Gaussian field's
 * random mantissas little, so a compressed file is counted at no less than
 * COMPRESSED_FRACTION of that (doc/guarantees-outputs.md). */
#define COMPRESSED_FRACTION 0.5
static int check_disk_space(const request *r)
{
    const int64_t *n = r->meta.n;
    char dir[4096];
    const char *slash = strrchr(r->out, '/');
    if (!slash)
        strcpy(dir, ".");
    else if (slash == r->out)
        strcpy(dir, "/");
    else
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - r->out), r->out);
    struct statvfs sv;
    if (statvfs(dir, &sv) != 0) /* a missing folder, with the system's reason */
        return cli_check_output(r->input ? "regenerate" : "generate", r->out, 0, 0);
    double need = tbrf_io_grid_bytes(r->meta.dim, n, r->meta.opts.precision);
    if (r->compress)
        need *= COMPRESSED_FRACTION;
    double avail = (double)sv.f_bavail * (double)sv.f_frsize;
    if (!(need <= avail)) {
        cli_errline("grid %lldx%lldx%lld needs %s%.3g GB but only %.3g GB are free in %s",
                    (long long)n[0], (long long)n[1], (long long)n[2],
                    r->compress ? "at least " : "", need / 1e9, avail / 1e9, dir);
        return EXIT_FAIL;
    }
    /* --out a folder, an unwritable folder, the file-size limit */
    return cli_check_output(r->input ? "regenerate" : "generate", r->out, 0,
                            r->compress ? 0 : need);
}

/* The geometry's domain: a grid's from its cells, a points run's from
 * the positions, read here. */
static int geometry(request *r)
{
    tbrf_io_meta *m = &r->meta;
    if (m->is_grid) {
        int rc = grid_domain(r);
        return rc ? rc : check_disk_space(r);
    }
    char err[1024];
    int dim;
    double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    /* An HDF5 /points is read in pieces twice (its box now, its values
     * while they stream into the output): memory stays one piece. */
    if (tbrf_io_points_open(r->points_from, &r->pts, &dim, &m->npoints, err, sizeof err) == 0) {
        m->dim = dim;
        const int64_t piece = 65536;
        double *buf = malloc((size_t)piece * (size_t)dim * sizeof *buf);
        if (!buf) {
            cli_errline("out of memory");
            return EXIT_FAIL;
        }
        for (int64_t first = 0; first < m->npoints; first += piece) {
            int64_t count = m->npoints - first < piece ? m->npoints - first : piece;
            if (tbrf_io_points_read(r->pts, first, count, buf, err, sizeof err)) {
                cli_errline("%s", err);
                free(buf);
                return EXIT_FAIL;
            }
            if (points_box(r, first, count, buf, lo, hi)) {
                free(buf);
                return EXIT_FAIL;
            }
        }
        free(buf);
        return points_domain(r, lo, hi);
    }
    if (tbrf_io_read_points(r->points_from, &dim, &m->npoints, &r->xyz, err, sizeof err)) {
        cli_errline("%s", err);
        return EXIT_FAIL;
    }
    m->dim = dim;
    return points_box(r, 0, m->npoints, r->xyz, lo, hi) ? EXIT_FAIL : points_domain(r, lo, hi);
}

/* Turning bands: lines x samples (at least 2 x diagonal x oversampling /
 * resolution, doubled per recorded padding; the diagonal of the recorded
 * domain); the FFT method: the grid's transform. A small file may record
 * a million lines or a resolution a billion times finer than its domain. */
int request_check_budget(const tbrf_io_meta *m, const char *file)
{
    char err[1024], esc[2048];
    double bytes;
    const char *what;
    if (m->opts.method == TBRF_METHOD_FFT && m->is_grid) {
        bytes = 16.0 * (double)m->n[0] * (double)m->n[1] * (double)m->n[2];
        what = "the FFT of the recorded grid";
    } else {
        double diag2 = 0.0;
        for (int c = 0; c < m->dim; c++)
            diag2 += (m->hi[c] - m->lo[c]) * (m->hi[c] - m->lo[c]);
        double samples = 2.0 * sqrt(diag2) * m->opts.oversampling / m->resolution;
        if (!(samples >= 16.0))
            samples = isnan(samples) ? INFINITY : 16.0;
        int pad = m->info.padding > 0 && m->info.padding <= 30 ? m->info.padding : 0;
        bytes = 8.0 * (double)m->opts.lines * samples * (double)(1 << pad);
        what = "the recorded lines (lines x line samples)";
    }
    if (tbrf_io_budget_check(file, what, bytes, err, sizeof err)) {
        cli_errline("%s", tbrf_io_escape(err, esc, sizeof esc));
        return EXIT_FAIL;
    }
    return 0;
}

/* The fraction of the model's variance above k (NaN if unknown): the same
 * model made again at unit amplitude, with and without a band [k, inf). */
static double fraction_above(const tbrf_io_meta *m, double k)
{
    tbrf_model *all = NULL, *above = NULL;
    double f = NAN;
    if (cli_model_make(m, &all) == TBRF_OK && cli_model_make(m, &above) == TBRF_OK &&
        tbrf_model_set_amplitude(all, 1.0) == TBRF_OK &&
        tbrf_model_set_amplitude(above, 1.0) == TBRF_OK) {
        int st = tbrf_model_set_band(above, k, INFINITY);
        /* a band that leaves no power: nothing above k */
        f = st == TBRF_OK ? tbrf_model_variance(above, m->dim) / tbrf_model_variance(all, m->dim)
                          : 0.0;
    }
    tbrf_model_destroy(all);
    tbrf_model_destroy(above);
    return f;
}

/* The variance the plan generates (variance_resolved) against the model's,
 * from the plan's own numbers. Above 101%: the FFT method's
 * sum of P(k)/V over the grid's modes exceeds the integral of P where the
 * spectrum is steep near the box's fundamental. Below 99%: the
 * loss is split by cause, each named with the fix that removes it:
 *  - below the lowest mode (the lines' 2 pi / line length, half a bin for
 *    the dropped kappa = 0 mode; the FFT box's fundamental): a longer line
 *    (--line-length-factor, the loss falls as its square) or a larger
 *    domain/box;
 *  - above the highest (the line Nyquist oversampling pi / resolution; the
 *    grid's Nyquist for FFT): --kmax (a grid cannot show it anyway), a
 *    finer grid, or for points a finer --resolution;
 *  - what neither explains is the lines' discretisation, which
 *    --oversampling refines.
 * The parts printed add up to the loss: the model's share
 * beyond a mode is what could be lost there, but the lowest modes stand
 * for more than their own k (a line's lowest bin, the FFT's P(k_f)/V), so
 * the loss can be smaller; then the causes share the loss in proportion
 * to the model's shares, which are quoted beside them. */
typedef struct loss_split {
    double loss, below, above, lbelow, labove, other; /* fractions of the model's variance */
} loss_split;

static void split_loss(double ratio, double below, double above, loss_split *l)
{
    l->loss = 1.0 - ratio;
    l->below = below > 0.005 ? below : 0.0;
    l->above = above > 0.005 ? above : 0.0;
    const double named = l->below + l->above;
    const double scale = named > l->loss && named > 0 ? l->loss / named : 1.0;
    l->lbelow = l->below * scale;
    l->labove = l->above * scale;
    l->other = l->loss - l->lbelow - l->labove;
}

/* The largest side and coarsest spacing of the FFT box or the grid: the
 * fundamental 2 pi / side, the Nyquist pi / h (the one every warning and
 * tbrf spectrum use: shells are whole only up to it). */
static void box_scales(const tbrf_io_meta *m, double *side, double *h)
{
    *side = *h = 0.0;
    for (int c = 0; c < m->dim; c++) {
        double L = m->box ? m->box_length[c] : (double)m->n[c] * m->spacing[c];
        double hc = m->box ? m->box_length[c] / (double)m->box_n[c]
                           : m->is_grid ? m->spacing[c] : m->resolution;
        *side = L > *side ? L : *side;
        *h = hc > *h ? hc : *h;
    }
}

static void warn_resolved(const request *r)
{
    const tbrf_io_meta *m = &r->meta;
    const tbrf_plan_info *info = &m->info;
    const double ratio = info->variance_resolved / info->variance;
    /* a periodic box (FFT or non-uniform FFT) sums the same modes */
    const int fft = tbrf_plan_method(r->plan) != TBRF_METHOD_TB;
    const double pi = 3.14159265358979323846;
    if (ratio >= 0.99 && ratio <= 1.01)
        return;
    if (ratio > 1.01) {
        fprintf(stderr,
                "tbrf: warning: the %s carry %.4g%% of the model's variance, more than the "
                "model (%s)\n",
                fft ? "grid's modes" : "lines", 100.0 * ratio,
                fft ? "the sum of P(k)/V over the modes exceeds the integral of P(k) where the "
                      "spectrum is steep near the box's fundamental 2 pi / side; use a larger "
                      "box or a larger kmin"
                    : "the line spectrum's discretisation overweights its lowest modes");
        return;
    }
    double side, h;
    box_scales(m, &side, &h);
    const double klo = fft ? 2.0 * pi / side : pi / info->line_length;
    /* the band edge, not pi / line_spacing: lines sampled twice as finely
     * keep the band (doc/method.md, "Interpolation") */
    const double khi = fft ? pi / h : pi * (double)m->opts.oversampling / m->resolution;
    loss_split l;
    split_loss(ratio, 1.0 - fraction_above(m, klo), fraction_above(m, khi), &l);
    char msg[1400];
    int len = snprintf(msg, sizeof msg,
                       "tbrf: warning: the %s carry only %.1f%% of the variance, %.1f%% is lost:",
                       fft ? "grid's modes" : "lines", 100.0 * ratio, 100.0 * l.loss);
    if (l.below > 0) {
        int f = r->meta.opts.line_length_factor > 0 ? r->meta.opts.line_length_factor : 1;
        int want = (int)ceil(f * sqrt(l.below / 0.005));
        len += snprintf(msg + len, sizeof msg - (size_t)len, " %.1f%% below the %s %.3g (the model"
                        " has %.1f%% there; ", 100.0 * l.lbelow,
                        fft ? "box's fundamental" : "lines' lowest mode", klo, 100.0 * l.below);
        /* a --box's fundamental is its own: more cells do not lower it */
        if (!fft)
            len += snprintf(msg + len, sizeof msg - (size_t)len,
                            "use longer lines, --line-length-factor %d, or a larger --domain);",
                            want > 1024 ? 1024 : want);
        else
            len += snprintf(msg + len, sizeof msg - (size_t)len, "%s",
                            m->box ? "use a larger --box, or cut the model there with --kmin);"
                                   : "use a periodic grid of more cells, or cut the model there "
                                     "with --kmin);");
    }
    if (l.above > 0)
        len += snprintf(msg + len, sizeof msg - (size_t)len,
                        " %.1f%% above the %s %.3g (the model has %.1f%% there; cut the model "
                        "with --kmax %.6g%s);",
                        100.0 * l.labove, fft ? "grid's Nyquist" : "lines' Nyquist", khi,
                        100.0 * l.above, m->is_grid ? pi / h : khi,
                        !m->is_grid ? ", or give a finer --resolution"
                        : m->box    ? ", the grid's Nyquist, or use a finer grid or --resolution"
                                    : ", the grid's Nyquist, or use a finer grid");
    if (l.other > 0.005 || (l.below == 0 && l.above == 0))
        len += snprintf(msg + len, sizeof msg - (size_t)len,
                        fft ? " %.1f%% to the sum over the grid's discrete modes (the spectrum "
                              "is steep near the box's fundamental: a larger box, or a larger "
                              "kmin);"
                            : " %.1f%% to the lines' discretisation (a larger --oversampling "
                              "refines it);",
                        100.0 * l.other);
    if (m->lognormal) /* what the loss does to the density: its variance, not its mean */
        len += snprintf(msg + len, sizeof msg - (size_t)len,
                        " with --lognormal rho/rho_mean keeps mean 1 (exp(g - v/2) with g's own "
                        "variance v = %.4g) but var(ln rho) is v, not %.4g, and the contrast's "
                        "variance exp(v) - 1 = %.4g, not %.4g;",
                        info->variance_resolved, m->lognormal_sigma2, expm1(info->variance_resolved),
                        expm1(m->lognormal_sigma2));
    msg[len - 1] = '\n'; /* the last ';' */
    fputs(msg, stderr);
}

/* Power above a grid's Nyquist pi/h (h: the coarsest spacing, whose axis
 * aliases first) is kept, not cut (doc/cli.md, "Band"): the grid samples
 * the same field points do. Its spectrum then holds that power aliased to
 * lower k, so the warning says how much and names the two fixes: the
 * --kmax that band-limits the model at the Nyquist, or a finer grid. Not
 * --oversampling: the lines already carry this power (that is why it
 * aliases). */
static void warn_nyquist(const request *r)
{
    const tbrf_io_meta *m = &r->meta;
    const tbrf_plan *plan = r->plan;
    /* the FFT method has no modes above the Nyquist: warn_resolved says
     * what it loses */
    if (!m->is_grid || tbrf_plan_method(plan) != TBRF_METHOD_TB)
        return;
    double h = 0.0;
    for (int c = 0; c < m->dim; c++)
        h = m->spacing[c] > h ? m->spacing[c] : h;
    const double kn = 3.14159265358979323846 / h;
    if (!isnan(m->param[TBRF_IO_P_KMAX]) && m->param[TBRF_IO_P_KMAX] <= kn)
        return;
    const double f = fraction_above(m, kn);
    if (!(f > 0.01))
        return;
    /* regenerate and sample remake a recorded field: --kmax is generate's
     * (a new field); sample can take a finer grid */
    char fix[4400];
    if (!r->input)
        snprintf(fix, sizeof fix, "to band-limit the model at the Nyquist give --kmax %.6g, or "
                 "use a finer grid", kn);
    else
        snprintf(fix, sizeof fix, "%sthe field recorded in %s is not band-limited there (a new "
                 "field from tbrf generate with --kmax %.6g would be)",
                 r->sampling ? "sample it with a finer --spacing, or note that " : "",
                 r->input, kn);
    fprintf(stderr,
            "tbrf: warning: %.1f%% of the model's variance lies above the grid's Nyquist "
            "wavenumber %.6g (pi / spacing %.6g): the grid samples it, so its spectrum shows "
            "that power aliased to lower k (the values are the field's, the grid's P(k) is not "
            "the model's); %s\n",
            100.0 * f, kn, h, fix);
}

/* A turning-bands grid whose spectrum is isotropic only below half its
 * Nyquist (cli/isotropy.c: L lines make k_iso = 0.63 sqrt(L) kf in 3D):
 * its shells above k_iso hold the lines' spikes, which tbrf spectrum's
 * p2/p^2 and any anisotropy measurement in k see. Real-space statistics
 * are right for any L, so this stays a warning, with the --lines that
 * makes the whole band isotropic. Only generate says it. */
static void warn_isotropy(const request *r)
{
    const tbrf_io_meta *m = &r->meta;
    /* regenerate and sample remake a recorded field, whose lines are
     * part of it: nothing to advise there (tbrf info says it) */
    if (r->input || !m->is_grid || tbrf_plan_method(r->plan) != TBRF_METHOD_TB)
        return;
    cli_isotropy iso;
    cli_isotropy_of(m->dim, m->n, m->spacing, m->opts.lines, &iso);
    if (!cli_isotropy_short(&iso))
        return;
    fprintf(stderr,
            "tbrf: warning: with %d lines%s the grid's spectrum is isotropic only up to k = %.3g "
            "(%.0f%% of its Nyquist %.3g): above it each shell's power gathers along the line "
            "directions (real-space statistics are right for any number of lines); --lines %.0f "
            "makes it isotropic up to the Nyquist\n",
            (int)m->opts.lines,
            r->lines_auto ? " (the default's cost bound; a grid this wide needs more)" : "",
            iso.kiso, 100.0 * iso.kiso / iso.knyq, iso.knyq, iso.need);
}

/* generate's --box: its axes against the geometry's dimension, the
 * origin (default 0) and the mode lattice n_d = round(L_d / h_d), h_d the
 * grid's spacing or --resolution (points: the mean spacing, from the
 * box's volume). A box run's domain is the box: positions wrap into it,
 * so no --domain applies. Regenerate and sample read all of it back. */
static int box_setup(request *r, int resolution_given)
{
    tbrf_io_meta *m = &r->meta;
    if (r->input)
        return 0;
    if (r->box_dim != 1 && r->box_dim != m->dim) {
        cli_errline("--box: give one period or %d (one per axis)", m->dim);
        return EXIT_USAGE;
    }
    if (r->box_origin_dim && r->box_origin_dim != m->dim) {
        cli_errline("--box-origin: give %d values for a %dD field", m->dim, m->dim);
        return EXIT_USAGE;
    }
    for (int c = 0; c < 3; c++) {
        m->box_length[c] = c >= m->dim ? 1.0 : m->box_length[r->box_dim == 1 ? 0 : c];
        if (!r->box_origin_dim || c >= m->dim)
            m->box_origin[c] = 0.0;
    }
    /* the defaults are the library's: the points' mean spacing over the
     * box, and the modes nearest the lattice of the grid's spacing or the
     * resolution */
    if (!resolution_given && !m->is_grid &&
        tbrf_periodic_points_resolution(m->dim, m->box_length, m->npoints, &m->resolution) !=
            TBRF_OK) {
        cli_errline("--box: no mean spacing of %lld points in it", (long long)m->npoints);
        return EXIT_USAGE;
    }
    double h[3] = {1, 1, 1};
    for (int c = 0; c < m->dim; c++)
        h[c] = m->is_grid && !resolution_given ? m->spacing[c] : m->resolution;
    const int st = tbrf_periodic_default_modes(m->dim, m->box_length, h, m->box_n);
    for (int c = 0; c < m->dim; c++) {
        const double ratio = m->box_length[c] / h[c];
        if (st != TBRF_OK ? !(ratio >= 0.5 && ratio < 1048576.5) : m->box_n[c] < 2) {
            cli_errline("--box %g along %c with spacing %g gives %.3g modes: 2 to 2^20 per axis",
                        m->box_length[c], AXES[c], h[c], floor(ratio + 0.5));
            return EXIT_USAGE;
        }
    }
    if (st != TBRF_OK) {
        cli_errline("--box: no modes for it (%s)", tbrf_strerror(st));
        return EXIT_USAGE;
    }
    return 0;
}

/* The vector and box options as the library takes them: from the
 * command line (generate) or the recorded names and numbers (regenerate,
 * sample). The accuracy recorded is the one used (0 picks a default). */
static int vector_setup(request *r)
{
    tbrf_io_meta *m = &r->meta;
    tbrf_opts *o = &m->opts;
    if (r->input) {
        o->vector = TBRF_SCALAR;
        if (m->ncomp > 1) {
            static const char *const K[] = {"solenoidal", "compressive", "mixed"};
            for (int k = 0; k < 3; k++)
                if (m->vector_kind && strcmp(m->vector_kind, K[k]) == 0)
                    o->vector = k + 1;
            if (o->vector == TBRF_SCALAR || isnan(m->zeta)) {
                cli_errline("%s: a vector field without a known vector_kind and vector_zeta",
                            r->input);
                return EXIT_FAIL;
            }
            o->zeta = m->zeta;
        }
        o->accuracy = isnan(m->accuracy) ? 0.0 : m->accuracy;
    }
    m->ncomp = o->vector == TBRF_SCALAR ? 1 : m->dim;
    if (m->box && !(o->accuracy > 0))
        o->accuracy = o->precision == TBRF_FLOAT ? 1e-6 : 1e-12;
    m->accuracy = m->box ? o->accuracy : NAN;
    return 0;
}

/* ------------------------------------------- lognormal densities */

/* The most of the Gaussian's variance a density target may clip. */
#define LOGNORMAL_MAX_CLIPPED 0.05

/* --lognormal: with a density target the model is the contrast's, and the
 * plan runs the Gaussian's derived spectrum (tbrf_model_lognormal) over
 * k in [min(pi/(4 D), kmin/2), 2 pi sqrt(dim)/resolution] with xi_g exact
 * to r = D (rmax = 2 D), D the domain's (or box's) diagonal: all recorded
 * values, so regenerate and sample derive the same table. */
static int lognormal_setup(request *r)
{
    tbrf_io_meta *m = &r->meta;
    if (!m->lognormal)
        return 0;
    if (m->lognormal == TBRF_IO_LOGNORMAL_GAUSSIAN) {
        m->lognormal_sigma2 = tbrf_model_variance(r->model, m->dim);
        m->lognormal_lost = 0.0;
        return 0;
    }
    double d2 = 0.0;
    for (int c = 0; c < m->dim; c++) {
        const double e = m->box ? m->box_length[c] : m->hi[c] - m->lo[c];
        d2 += e * e;
    }
    /* An anisotropic model's table lives in its scaled coordinates
     * (|S R^T k|, |S^-1 R^T x|): widen the ranges by its extreme factors. */
    double sc[3] = {1, 1, 1}, an[3], smin = 1.0, smax = 1.0;
    tbrf_model_anisotropy(r->model, sc, an);
    for (int c = 0; c < m->dim; c++) {
        smin = sc[c] < smin ? sc[c] : smin;
        smax = sc[c] > smax ? sc[c] : smax;
    }
    const double D = sqrt(d2) / smin;
    const double kmax = smax * 2.0 * M_PI * sqrt((double)m->dim) / m->resolution;
    double kmin = M_PI / (4.0 * D);
    if (m->param[TBRF_IO_P_KMIN] > 0.0 && 0.5 * m->param[TBRF_IO_P_KMIN] < kmin)
        kmin = 0.5 * m->param[TBRF_IO_P_KMIN];
    tbrf_model *g = NULL;
    double lost = NAN;
    int st = tbrf_model_lognormal(r->model, m->dim, kmin, kmax, 2.0 * D, LOGNORMAL_MAX_CLIPPED,
                                  &lost, &g);
    if (st != TBRF_OK) {
        cli_errline("--lognormal: %s", model_msg(g, st));
        tbrf_model_destroy(g);
        return EXIT_FAIL;
    }
    r->target = r->model;
    r->model = g;
    m->lognormal_sigma2 = tbrf_model_variance(g, m->dim);
    m->lognormal_lost = lost;
    if (lost > 1e-4 && !r->quiet && !r->input && cli_mpi_rank() == 0)
        fprintf(stderr, "tbrf: warning: --lognormal: the Gaussian's spectrum goes negative; "
                        "clipped, losing %.3g%% of its variance (doc/lognormal.md)\n", 100 * lost);
    return 0;
}

/* exp(g - v/2) has mean 1 when v is the variance g itself carries: the
 * plan's resolved variance, not the model's sigma_g^2 (a grid that misses
 * variance would bias the mean by exp((v - sigma_g^2)/2)). A remade file
 * keeps what it recorded, so sample at other positions subtracts the same
 * v; one that recorded none subtracted sigma_g^2 and is remade so (its
 * v stays NaN: the remade file records nothing new). */
static void lognormal_shift(request *r)
{
    tbrf_io_meta *m = &r->meta;
    if (m->lognormal && !r->input)
        m->lognormal_shift = m->info.variance_resolved;
}

static int make_plan(request *r)
{
    tbrf_io_meta *m = &r->meta;
    if (!m->box)
        return tbrf_make_plan(r->model, m->dim, m->lo, m->hi, m->resolution, m->seed, &m->opts,
                              &r->plan);
    for (int c = 0; c < 3; c++) {
        m->lo[c] = m->box_origin[c];
        m->hi[c] = m->box_origin[c] + (c < m->dim ? m->box_length[c] : 0.0);
    }
    m->opts.periodic = 1;
    return tbrf_make_periodic_plan(r->model, m->dim, m->box_origin, m->box_length, m->box_n,
                                   m->seed, &m->opts, &r->plan);
}

/* generate's lines without --lines: the library's default for the
 * geometry (tbrf_default_lines: on a grid isotropic up to its Nyquist
 * within a cost and memory bound, at points its minimum), computed here
 * rather than left to the plan so the file records them and the MPI
 * choice below can weigh them. A box's lattice or the FFT keeps the
 * points' number, which it never draws. */
static int default_lines(const tbrf_io_meta *m)
{
    const int grid = m->is_grid && !m->box && m->opts.method != TBRF_METHOD_FFT;
    tbrf_opts o = m->opts;
    o.lines = 0;
    int32_t lines = 0;
    if (tbrf_default_lines(m->dim, m->lo, m->hi, m->resolution, grid ? m->n : NULL,
                           grid ? m->spacing : NULL, &o, &lines) != TBRF_OK)
        lines = TBRF_DEFAULT_LINES_MIN; /* the plan refuses the dimension itself */
    return lines;
}

/* Under mpirun, --method auto (--periodic) on a periodic grid without a
 * --box: the distributed FFT method (run.c, tbrf_mpi_fft_stream) holds
 * 1/P of the transform a rank, so it is taken whenever the default
 * turning-bands lines would stop short of an isotropic spectrum up to the
 * grid's Nyquist (the library's AUTO alone would refuse a transform that
 * does not fit one process). 1 when it was taken for that reason. */
static int mpi_auto_fft(request *r)
{
    tbrf_io_meta *m = &r->meta;
    if (cli_mpi_size() < 2 || r->input || !m->is_grid || m->box || !m->opts.periodic ||
        m->opts.method != TBRF_METHOD_AUTO || !r->lines_auto)
        return 0;
    cli_isotropy iso;
    const int lines = default_lines(m);
    cli_isotropy_of(m->dim, m->n, m->spacing, lines, &iso);
    if (!(lines < iso.need))
        return 0;
    m->opts.method = TBRF_METHOD_FFT;
    return 1;
}

/* What --method auto chose under mpirun, said once. */
static void mpi_auto_note(const request *r, int anisotropic)
{
    const tbrf_io_meta *m = &r->meta;
    if (cli_mpi_size() < 2 || cli_mpi_rank() != 0 || r->quiet || !m->is_grid ||
        m->method_used != TBRF_METHOD_FFT)
        return;
    fprintf(stderr, "tbrf: --method auto: the FFT method, one transform distributed over %d ranks "
            "(FFTW-MPI slabs)%s\n", cli_mpi_size(),
            anisotropic ? ": the default turning-bands lines would be isotropic only below the Nyquist" : "");
}

int request_plan(request *r)
{
    tbrf_io_meta *m = &r->meta;
    int rc = request_check_paths(r);
    /* Vector fields and periodic boxes are recorded by the io library
     * before the tool makes them: never remake one as a scalar
     * field of the whole domain. */
    const int resolution_given = !isnan(m->resolution);
    if (rc == 0 && m->box && r->domain_dim && !r->input) {
        cli_errline("generate: --domain does not apply with --box (the box is the domain)");
        rc = EXIT_USAGE;
    }
    if (m->box)
        r->domain_dim = 0; /* positions wrap into the box: none is outside */
    if (rc == 0)
        rc = make_model(r);
    if (rc == 0)
        rc = geometry(r);
    if (rc == 0 && m->box)
        rc = box_setup(r, resolution_given);
    if (rc == 0)
        rc = vector_setup(r);
    if (rc == 0)
        rc = lognormal_setup(r);
    if (rc)
        return rc;
    /* The default lines follow the geometry (the library's rule), fixed
     * before the plan so the file records them. */
    const int was_auto = m->opts.method == TBRF_METHOD_AUTO, mpi_aniso = mpi_auto_fft(r);
    if (r->lines_auto && !r->input)
        m->opts.lines = default_lines(m);
    int st = make_plan(r);
    if (st == TBRF_OK)
        /* Streamed points (r->pts) are pulled by tbrf_execute_stream;
         * setting none still checks that the method takes points. */
        st = m->is_grid ? tbrf_set_grid(r->plan, m->origin, m->spacing, m->n)
                        : tbrf_set_points(r->plan, r->pts ? 0 : m->npoints, r->xyz);
    if (st == TBRF_OK)
        st = tbrf_plan_get_info(r->plan, &m->info);
    if (st != TBRF_OK) {
        cli_errline("%s", cli_plan_msg(r->plan, st));
        return EXIT_FAIL;
    }
    lognormal_shift(r);
    if (cli_mpi_rank() == 0) { /* once per run, not once per MPI rank */
        /* a remade field's loss was said when it was generated, and the
         * options that change it are generate's */
        if (!r->input)
            warn_resolved(r);
        warn_nyquist(r);
        warn_isotropy(r);
    }
    /* What the file records of the run: the model as made, and the method
     * that ran (AUTO resolved). */
    m->model = tbrf_model_describe(r->target ? r->target : r->model);
    m->method_used = tbrf_plan_method(r->plan);
    m->opts.method = m->method_used;
    m->method_name = m->method_used == TBRF_METHOD_NUFFT ? "nufft"
                     : m->method_used == TBRF_METHOD_FFT ? "fft" : "tb";
    if (was_auto)
        mpi_auto_note(r, mpi_aniso);
    return 0;
}

int request_output(request *r, const output_args *a)
{
    char err[512];
    int64_t v;
    if (a->threads) {
        /* More threads than this is a typo, not a machine (the library's
         * limit, include/tbrf.h). */
        if (args_int64("--threads", a->threads, 0, 1024, &v, err, sizeof err))
            goto bad;
        r->meta.opts.threads = (int32_t)v;
    }
    if (a->chunk) {
        if (args_int64("--chunk", a->chunk, 0, INT64_MAX, &v, err, sizeof err))
            goto bad;
        r->meta.opts.chunk = v;
    }
    if (!a->out || !a->out[0]) {
        cli_errline(a->out ? "--out needs a file name" : "generate: --out OUT.h5 is required");
        return EXIT_USAGE;
    }
    r->out = a->out;
    r->compress = a->compress;
    r->report = a->report;
    r->quiet = a->quiet;
    /* The format asked for, or the one the name's suffix chooses (.nc:
     * netcdf), from io's registry of formats. */
    if (a->format && tbrf_io_format_check(a->format, err, sizeof err)) {
        cli_errline("--format: %s", err);
        return EXIT_USAGE;
    }
    r->format = tbrf_io_format_of(a->out, a->format);
    /* ParaView/VisIt read CF netCDF themselves; XDMF describes HDF5. */
    const int side = tbrf_io_format_xdmf(r->format);
    r->xdmf = side && !a->no_xdmf;
    if (!side && a->no_xdmf) {
        cli_errline("generate: --no-xdmf applies to HDF5 output only (%s gets no XDMF file)",
                    r->format);
        return EXIT_USAGE;
    }
    return 0;
bad:
    cli_errline("%s", err);
    return EXIT_USAGE;
}
