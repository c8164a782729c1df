/* transfer.c — CAMB transfer files and CLASS tk files read as P(k) models
 * (tbrf_ic_transfer_power, tbrf_ic_transfer_velocity, tbrf.h "initial
 * conditions"; doc/ic.md,
 * "Transfer files").
 *
 * The layout is told from the header, never guessed from numbers alone
 * except for CAMB's own header-less files:
 *   - CLASS (format = class): "# 1:k (h/Mpc) 2:d_g 3:d_b 4:d_cdm ...
 *     d_tot ...": the synchronous-gauge density contrasts delta_i for unit
 *     initial curvature; T = delta / k^2 (CLASS's note: CAMB's columns are
 *     the same quantities divided by -k^2, k in 1/Mpc), the sign and the
 *     constant dropped by the square. A t_cdm column is written only in
 *     the Newtonian gauge, whose delta on large scales is not the
 *     synchronous one: refused.
 *   - CLASS (format = camb): "# 1:k (h/Mpc) 2:-T_cdm/k2 3:-T_b/k2 ...
 *     7:-T_tot/k2": T as written.
 *   - CAMB with a header ("# k/h CDM baryon photon nu mass_nu total ..."):
 *     the named columns; without one (older CAMB) 7, 9 or 13 columns in
 *     CAMB's fixed order k/h, CDM, baryon, photon, massless nu, massive
 *     nu, total[, no_nu, total_de[, Weyl, v_CDM, v_b, v_b-v_c]].
 * P(k) = k^n_s T(k)^2 (the primordial k^(n_s - 4) times (k^2 T)^2 times
 * k^3 / k^3), amplitude 1: normalise it (sigma8) before use. A header
 * must name as many columns as the rows have. The velocities
 * (tbrf_ic_transfer_velocity, doc/ic.md "Two fluids") are T_v = -theta /
 * (H_conf k^2) in the same units: CAMB's v_CDM, v_b columns; CLASS's
 * Newtonian theta from its synchronous t_b, h_prime, eta_prime. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tbrf.h"
#include "apps/ic/ic_internal.h"

/* The bounds of tbrf_model_table_file: a line up to 1 MiB, 2^22 rows,
 * 2^26 lines; at most 64 columns are looked at; and 256 MiB in all (CAMB
 * and CLASS write a few hundred KiB), so no file is read far beyond what
 * a transfer file can be. */
#define TR_BYTES_MAX ((long)1 << 28)
#define TR_LINE_MAX (1 << 20)
#define TR_ROWS_MAX (1 << 22)
#define TR_LINES_MAX (1 << 26)
#define TR_COLS 64

/* What the header said: the format and the column (0-based) of each
 * species, -1 where absent; delta: the CLASS class-format contrasts
 * (divided by k^2 here); the velocities' columns: CAMB's v_CDM and v_b
 * (vel), CLASS's t_b, h_prime and eta_prime (tb, hp, ep). */
typedef struct tr_layout {
    int format;
    int col[3];
    int delta;
    int newtonian;
    int vel[2];
    int tb, hp, ep;
    int names; /* the columns the header names */
} tr_layout;

/* The end of a CLASS column name starting at b: the next " N:" or the
 * line's end, trailing blanks dropped. */
static const char *name_end(const char *b)
{
    const char *e = b;
    for (; *e; e++) {
        if (!isspace((unsigned char)*e))
            continue;
        const char *d = e;
        while (isspace((unsigned char)*d))
            d++;
        const char *c = d;
        while (isdigit((unsigned char)*c))
            c++;
        if (c > d && *c == ':')
            break;
    }
    while (e > b && isspace((unsigned char)e[-1]))
        e--;
    return e;
}

/* CLASS's numbered header "# 1:k (h/Mpc) 2:d_g ...": the names into
 * names[] (up to TR_COLS, each up to 31 characters); the count, or 0
 * when the line is no such header. */
static int class_names(const char *s, char names[TR_COLS][32])
{
    int n = 0;
    for (const char *p = s; *p;) {
        char *end;
        if ((p == s || isspace((unsigned char)p[-1])) && isdigit((unsigned char)*p) &&
            strtol(p, &end, 10) == n + 1 && *end == ':') {
            const char *b = end + 1, *e = name_end(b);
            size_t len = (size_t)(e - b) < 31 ? (size_t)(e - b) : 31;
            if (n < TR_COLS) {
                memcpy(names[n], b, len);
                names[n][len] = '\0';
            }
            n++;
            p = e > b ? e : b;
            continue;
        }
        p++;
    }
    return n >= 2 && names[0][0] == 'k' ? (n < TR_COLS ? n : TR_COLS) : 0;
}

static int find_name(char names[TR_COLS][32], int n, const char *a)
{
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], a) == 0)
            return i;
    return -1;
}

/* A CLASS header line into *l: 1 recognised, 0 not a CLASS header. */
static int class_header(const char *line, tr_layout *l)
{
    char names[TR_COLS][32];
    int n = class_names(line, names);
    if (n == 0)
        return 0;
    l->format = TBRF_IC_TRANSFER_CLASS;
    l->names = n;
    /* CLASS's matter (d_m) where it writes one, else its total (which
     * also holds the radiation's small share) */
    l->col[0] = find_name(names, n, "d_m");
    if (l->col[0] < 0)
        l->col[0] = find_name(names, n, "d_tot");
    l->col[1] = find_name(names, n, "d_b");
    l->col[2] = find_name(names, n, "d_cdm");
    l->delta = 1;
    l->newtonian = find_name(names, n, "t_cdm") >= 0;
    l->vel[0] = l->vel[1] = -1;
    l->tb = find_name(names, n, "t_b");
    l->hp = find_name(names, n, "h_prime");
    l->ep = find_name(names, n, "eta_prime");
    if (l->col[0] < 0 && find_name(names, n, "-T_tot/k2") >= 0) {
        l->col[0] = find_name(names, n, "-T_tot/k2");
        l->col[1] = find_name(names, n, "-T_b/k2");
        l->col[2] = find_name(names, n, "-T_cdm/k2");
        l->delta = 0;
    }
    return 1;
}

/* CAMB's header "# k/h CDM baryon photon nu mass_nu total ...": 1 when
 * the line names k/h, CDM, baryon and total. */
static int camb_header(const char *line, tr_layout *l)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", line);
    int col = 0, k = -1, c[3] = {-1, -1, -1}, v[2] = {-1, -1};
    for (char *t = strtok(buf + 1, " \t\r\n"); t; t = strtok(NULL, " \t\r\n"), col++) {
        if (strcmp(t, "v_CDM") == 0)
            v[0] = col;
        else if (strcmp(t, "v_b") == 0)
            v[1] = col;
        else if (strcmp(t, "k/h") == 0)
            k = col;
        else if (strcmp(t, "total") == 0)
            c[0] = col;
        else if (strcmp(t, "baryon") == 0)
            c[1] = col;
        else if (strcmp(t, "CDM") == 0)
            c[2] = col;
    }
    if (k != 0 || c[0] < 0 || c[1] < 0 || c[2] < 0)
        return 0;
    *l = (tr_layout){TBRF_IC_TRANSFER_CAMB, {c[0], c[1], c[2]}, 0, 0, {v[0], v[1]}, -1, -1, -1,
                     col};
    return 1;
}

/* The file's rows: the numbers of each data line into *v (cols a row). */
typedef struct tr_rows {
    double *v;
    size_t n, cap;
    int cols;
    tr_layout layout;
    int header; /* a header named the columns */
} tr_rows;

/* One data line into r; 0, or the status with the reason in message. */
static int data_line(const char *path, long lineno, char *line, tr_rows *r, char *msg, size_t ms)
{
    double v[TR_COLS];
    int c = 0;
    char *s = line, *end;
    while (1) {
        while (isspace((unsigned char)*s))
            s++;
        if (!*s)
            break;
        double x = strtod(s, &end);
        if (end == s || !isfinite(x))
            return tbrfi_ic_fail(msg, ms, TBRF_ERR_TABLE, "%s line %ld: not a row of finite "
                                 "numbers", path, lineno);
        if (c < TR_COLS)
            v[c] = x;
        c++;
        s = end;
    }
    if (c == 0)
        return TBRF_OK;
    c = c < TR_COLS ? c : TR_COLS;
    if (r->n == 0)
        r->cols = c;
    if (c != r->cols)
        return tbrfi_ic_fail(msg, ms, TBRF_ERR_TABLE, "%s line %ld: %d columns where the first "
                             "row has %d", path, lineno, c, r->cols);
    if (r->n >= TR_ROWS_MAX)
        return tbrfi_ic_fail(msg, ms, TBRF_ERR_SIZE, "%s: more than %d rows", path, TR_ROWS_MAX);
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 256;
        double *nv = realloc(r->v, cap * (size_t)c * sizeof *nv);
        if (!nv)
            return tbrfi_ic_fail(msg, ms, TBRF_ERR_NO_MEMORY, "%s: out of memory", path);
        r->v = nv;
        r->cap = cap;
    }
    memcpy(r->v + r->n * (size_t)c, v, (size_t)c * sizeof *v);
    r->n++;
    return TBRF_OK;
}

/* One line (comment or data) of the file. */
static int one_line(const char *path, long lineno, char *line, tr_rows *r, char *msg, size_t ms)
{
    char *s = line;
    while (isspace((unsigned char)*s))
        s++;
    if (*s != '#')
        return data_line(path, lineno, s, r, msg, ms);
    /* the last header before the rows names their columns */
    tr_layout l;
    if (r->n == 0 && (class_header(s + 1, &l) || camb_header(s, &l))) {
        r->layout = l;
        r->header = 1;
    }
    return TBRF_OK;
}

/* Reads the file's lines (bounded; a NUL byte refused as binary data). */
static int read_rows(const char *path, tr_rows *r, char *msg, size_t ms)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return tbrfi_ic_fail(msg, ms, TBRF_ERR_FILE, "cannot open the transfer file %s", path);
    char *line = malloc(TR_LINE_MAX + 2);
    int st = line ? TBRF_OK : tbrfi_ic_fail(msg, ms, TBRF_ERR_NO_MEMORY, "out of memory");
    long lineno = 0, bytes = 0;
    size_t len = 0;
    int ch;
    while (st == TBRF_OK && (ch = fgetc(f)) != EOF) {
        if ((ch < 0x20 && ch != '\n' && ch != '\t' && ch != '\r' && ch != '\v' && ch != '\f') ||
            ch == 0x7f)
            st = tbrfi_ic_fail(msg, ms, TBRF_ERR_FILE, "%s line %ld, byte %zu: 0x%02x is no text "
                               "(binary data, not a transfer file)", path, lineno + 1, len + 1,
                               (unsigned)ch);
        else if (++bytes > TR_BYTES_MAX)
            st = tbrfi_ic_fail(msg, ms, TBRF_ERR_SIZE, "%s: larger than %ld MiB: not a transfer "
                               "file", path, TR_BYTES_MAX >> 20);
        else if (ch != '\n' && len >= TR_LINE_MAX)
            st = tbrfi_ic_fail(msg, ms, TBRF_ERR_SIZE, "%s line %ld: longer than %d bytes", path,
                               lineno + 1, TR_LINE_MAX);
        else if (ch != '\n')
            line[len++] = (char)ch;
        else if (++lineno > TR_LINES_MAX)
            st = tbrfi_ic_fail(msg, ms, TBRF_ERR_SIZE, "%s: more than %d lines", path,
                               TR_LINES_MAX);
        else {
            line[len] = '\0';
            st = one_line(path, lineno, line, r, msg, ms);
            len = 0;
        }
    }
    if (st == TBRF_OK && len > 0) {
        line[len] = '\0';
        st = one_line(path, lineno + 1, line, r, msg, ms);
    }
    if (st == TBRF_OK && ferror(f))
        st = tbrfi_ic_fail(msg, ms, TBRF_ERR_FILE, "cannot read the transfer file %s", path);
    free(line);
    fclose(f);
    return st;
}

/* The layout of the rows: the header's, or CAMB's fixed columns for a
 * header-less file of 7, 9 or 13 columns; refused otherwise, naming what
 * was expected. */
static int layout(const char *path, tr_rows *r, char *msg, size_t ms)
{
    static const char *const EXPECT = "expected a CAMB transfer file (\"k/h CDM baryon photon nu "
                                      "mass_nu total ...\": 7, 9 or 13 columns, with or without "
                                      "that '#' header) or a CLASS tk file (a '# 1:k (h/Mpc) "
                                      "2:d_g 3:d_b 4:d_cdm ... d_tot' header)";
    if (r->n < 2)
        return tbrfi_ic_fail(msg, ms, TBRF_ERR_TABLE, "%s: %zu rows: a transfer file needs at "
                             "least 2; %s", path, r->n, EXPECT);
    if (!r->header) {
        if (r->cols != 7 && r->cols != 9 && r->cols != 13)
            return tbrfi_ic_fail(msg, ms, TBRF_ERR_TABLE, "%s: no header naming the columns and "
                                 "%d columns a row: %s", path, r->cols, EXPECT);
        /* 13 columns: v_CDM and v_b are the 11th and 12th */
        const int v = r->cols == 13;
        r->layout = (tr_layout){TBRF_IC_TRANSFER_CAMB, {6, 2, 1}, 0, 0,
                                {v ? 10 : -1, v ? 11 : -1}, -1, -1, -1, r->cols};
    }
    const tr_layout *l = &r->layout;
    /* CLASS leaves out the columns of absent species but may still name
     * them: the names then sit over the wrong numbers */
    if (l->names != r->cols)
        return tbrfi_ic_fail(msg, ms, TBRF_ERR_TABLE, "%s: the header names %d columns, the "
                             "rows have %d: which column is which cannot be told (correct the "
                             "header to the rows)", path, l->names, r->cols);
    if (l->newtonian)
        return tbrfi_ic_fail(msg, ms, TBRF_ERR_TABLE, "%s: a CLASS tk file in the Newtonian gauge "
                             "(it has t_cdm): the displacements need the synchronous gauge's "
                             "densities (CLASS: gauge = synchronous)", path);
    if (l->col[0] < 0 || l->col[1] < 0 || l->col[2] < 0)
        return tbrfi_ic_fail(msg, ms, TBRF_ERR_TABLE, "%s: the header names no %s column; %s",
                             path, l->col[0] < 0 ? "total matter (d_tot, -T_tot/k2, total)"
                                   : l->col[1] < 0 ? "baryon (d_b, -T_b/k2, baryon)"
                                                   : "CDM (d_cdm, -T_cdm/k2, CDM)", EXPECT);
    return TBRF_OK;
}

/* T of a species (0 .. 2) at a row: the column, over k^2 for CLASS's
 * contrasts. */
static double density_t(const tr_layout *l, const double *row, int species)
{
    const double t = row[l->col[species]];
    return l->delta ? t / (row[0] * row[0]) : t;
}

/* The velocity in the density's units at a row (species 1 baryons, 2
 * CDM): CAMB's -v_N k / H_conf column as written (divided by k^2 like its
 * densities); from CLASS's synchronous gauge the Newtonian-gauge theta
 * (theta_c = (h' + 6 eta') / 2, theta_b = t_b + theta_c; Ma & Bertschinger
 * 1995, eq. 27) as -theta / (H_conf k^2), hc = H_conf in 1/Mpc. */
static double velocity_t(const tr_layout *l, const double *row, int species, double hc)
{
    if (l->format == TBRF_IC_TRANSFER_CAMB)
        return row[l->vel[species == TBRF_IC_TRANSFER_CDM ? 0 : 1]];
    const double theta_c = 0.5 * (row[l->hp] + 6.0 * row[l->ep]);
    const double theta = species == TBRF_IC_TRANSFER_CDM ? theta_c : row[l->tb] + theta_c;
    return -theta / (hc * row[0] * row[0]);
}

/* k^n_s T^2 of one species as a table model: its density's T, or with
 * hc > 0 its velocity's (whose ratio to the density, the species' growth
 * rate, must be > 0 at every row: the same phases cannot carry a
 * velocity against the growing mode). */
static int power_model(const char *path, const tr_rows *r, int species, double n_s, double hc,
                       tbrf_model **model, char *msg, size_t ms)
{
    double *k = malloc(r->n * sizeof *k), *p = malloc(r->n * sizeof *p);
    int st = k && p ? TBRF_OK : tbrfi_ic_fail(msg, ms, TBRF_ERR_NO_MEMORY, "out of memory");
    for (size_t i = 0; st == TBRF_OK && i < r->n; i++) {
        const double *row = r->v + i * (size_t)r->cols;
        const double d = density_t(&r->layout, row, species);
        const double t = hc > 0 ? velocity_t(&r->layout, row, species, hc) : d;
        k[i] = row[0];
        p[i] = pow(row[0], n_s) * t * t;
        if (!(k[i] > 0) || (i > 0 && !(k[i] > k[i - 1])) || !isfinite(p[i]))
            st = tbrfi_ic_fail(msg, ms, TBRF_ERR_TABLE, "%s: data row %zu: k must be > 0 and "
                               "increase, k^n_s T^2 finite (k %g, T %g)", path, i + 1, k[i], t);
        else if (hc > 0 && t * d < 0)
            st = tbrfi_ic_fail(msg, ms, TBRF_ERR_TABLE, "%s: data row %zu (k %g h/Mpc): the %s "
                               "velocity (%g) has the opposite sign of its density (%g): a "
                               "velocity against the growing mode is not taken", path, i + 1,
                               k[i], species == TBRF_IC_TRANSFER_CDM ? "CDM" : "baryon", t, d);
    }
    if (st == TBRF_OK) {
        st = tbrf_model_table(r->n, k, p, model);
        if (st != TBRF_OK)
            tbrfi_ic_fail(msg, ms, st, "%s: %s", path,
                          *model ? tbrf_model_message(*model) : tbrf_strerror(st));
    }
    free(k);
    free(p);
    return st;
}

/* The velocities' columns of the layout (the header names as many as the
 * rows have): 0, or TBRF_ERR_UNSUPPORTED (none in the file). */
static int velocity_columns(const char *path, const tr_rows *r, int species, char *msg,
                            size_t ms)
{
    const tr_layout *l = &r->layout;
    const int cdm = species == TBRF_IC_TRANSFER_CDM;
    int need[3] = {-1, -1, -1}, missing = 1;
    if (l->format == TBRF_IC_TRANSFER_CAMB) {
        need[0] = l->vel[cdm ? 0 : 1];
        missing = need[0] < 0;
    } else if (l->delta) { /* CLASS's format = camb writes no velocities */
        need[0] = l->hp;
        need[1] = l->ep;
        need[2] = cdm ? l->hp : l->tb;
        missing = need[0] < 0 || need[1] < 0 || need[2] < 0;
    }
    if (missing)
        return tbrfi_ic_fail(msg, ms, TBRF_ERR_UNSUPPORTED, "%s: no %s velocity: a CAMB "
                             "transfer file has it in v_CDM and v_b (13 columns), a CLASS tk "
                             "file (format = class, synchronous gauge) in t_b, h_prime and "
                             "eta_prime", path, cdm ? "CDM" : "baryon");
    return TBRF_OK;
}

/* The rows and layout of path into *r (freed by the caller). */
static int read_file(const char *path, tr_rows *r, char *msg, size_t ms)
{
    memset(r, 0, sizeof *r);
    int st = read_rows(path, r, msg, ms);
    return st == TBRF_OK ? layout(path, r, msg, ms) : st;
}

int tbrf_ic_transfer_power(const char *path, int32_t species, double n_s, int32_t *format,
                           tbrf_model **model, char *message, size_t message_size)
{
    if (!model)
        return tbrfi_ic_fail(message, message_size, TBRF_ERR_NULL, "transfer: model is NULL");
    *model = NULL;
    if (!path)
        return tbrfi_ic_fail(message, message_size, TBRF_ERR_NULL, "transfer: path is NULL");
    if (species < 0 || species > 2 || !(isfinite(n_s) && n_s > -3 && n_s < 5))
        return tbrfi_ic_fail(message, message_size, TBRF_ERR_INVALID, "transfer: need species "
                             "0 .. 2 and -3 < n_s < 5 (got %d, %g)", (int)species, n_s);
    tr_rows r;
    int st = read_file(path, &r, message, message_size);
    if (st == TBRF_OK)
        st = power_model(path, &r, species, n_s, 0.0, model, message, message_size);
    if (st == TBRF_OK) {
        if (format)
            *format = r.layout.format;
        tbrfi_ic_ok(message, message_size);
    } else if (*model) {
        tbrf_model_destroy(*model);
        *model = NULL;
    }
    free(r.v);
    return st;
}

int tbrf_ic_transfer_velocity(const char *path, int32_t species, double n_s,
                              double conformal_hubble, tbrf_model **model, char *message,
                              size_t message_size)
{
    if (!model)
        return tbrfi_ic_fail(message, message_size, TBRF_ERR_NULL, "transfer: model is NULL");
    *model = NULL;
    if (!path)
        return tbrfi_ic_fail(message, message_size, TBRF_ERR_NULL, "transfer: path is NULL");
    if ((species != TBRF_IC_TRANSFER_BARYON && species != TBRF_IC_TRANSFER_CDM) ||
        !(isfinite(n_s) && n_s > -3 && n_s < 5) ||
        !(conformal_hubble > 0 && isfinite(conformal_hubble)))
        return tbrfi_ic_fail(message, message_size, TBRF_ERR_INVALID, "transfer: a velocity "
                             "needs species TBRF_IC_TRANSFER_BARYON or _CDM, -3 < n_s < 5 and a "
                             "conformal Hubble rate > 0 (got %d, %g, %g)", (int)species, n_s,
                             conformal_hubble);
    tr_rows r;
    int st = read_file(path, &r, message, message_size);
    if (st == TBRF_OK)
        st = velocity_columns(path, &r, species, message, message_size);
    if (st == TBRF_OK)
        st = power_model(path, &r, species, n_s, conformal_hubble, model, message,
                         message_size);
    if (st == TBRF_OK) {
        tbrfi_ic_ok(message, message_size);
    } else if (*model) {
        tbrf_model_destroy(*model);
        *model = NULL;
    }
    free(r.v);
    return st;
}
