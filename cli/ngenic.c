/* ngenic.c — an N-GenIC parameter file for `tbrf arepo cosmo --ngenic`
 * (doc/arepo.md, "--ngenic"): the `Key value` lines ('%' starts a
 * comment) read into ngenic_params, every key N-GenIC knows either
 * honoured or refused by name, and its tabulated spectrum (log10 k,
 * log10 Delta^2(k)) converted to tbrf's P(k). */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "io/tbrf_io.h"
#include "ngenic.h"

/* The keys: where each goes (a number or a string), whether N-GenIC
 * requires it. */
typedef struct ngkey {
    const char *name;
    size_t num;  /* offsetof a double in ngenic_params, or (size_t)-1 */
    size_t str;  /* offsetof a char[NGENIC_STR], or (size_t)-1 */
    int required;
} ngkey;

#define NUM(f, r) {#f, offsetof(ngenic_params, f), (size_t)-1, r}
#define STR(f, r) {#f, (size_t)-1, offsetof(ngenic_params, f), r}
static const ngkey KEYS[] = {
    NUM(Nmesh, 1), NUM(Nsample, 1), NUM(Box, 1), STR(FileBase, 1), STR(OutputDir, 1),
    STR(GlassFile, 1), NUM(GlassTileFac, 1), NUM(Omega, 1), NUM(OmegaLambda, 1),
    NUM(OmegaBaryon, 1), NUM(OmegaDM_2ndSpecies, 1), NUM(HubbleParam, 1), NUM(Redshift, 1),
    NUM(Sigma8, 1), NUM(SphereMode, 1), NUM(WhichSpectrum, 1), STR(FileWithInputSpectrum, 1),
    NUM(InputSpectrum_UnitLength_in_cm, 1), NUM(ReNormalizeInputSpectrum, 1),
    NUM(ShapeGamma, 1), NUM(PrimordialIndex, 1), NUM(Seed, 1), NUM(NumFilesWrittenInParallel, 1),
    NUM(UnitLength_in_cm, 1), NUM(UnitMass_in_g, 1), NUM(UnitVelocity_in_cm_per_s, 1),
    NUM(WDM_On, 1), NUM(WDM_Vtherm_On, 1), NUM(WDM_PartMass_in_kev, 1), NUM(NumFiles, 0)};
#undef NUM
#undef STR
enum { NKEYS = sizeof KEYS / sizeof KEYS[0] };

/* One "Key value" line into p (seen[k] marks key k). 0, or -1 after the
 * message. */
static int set_key(const char *path, size_t lineno, char *key, char *value, ngenic_params *p,
                   int *seen)
{
    char e1[256], e2[256];
    for (int k = 0; k < NKEYS; k++) {
        if (strcmp(key, KEYS[k].name) != 0)
            continue;
        if (seen[k]) {
            cli_errline("--ngenic %s:%zu: %s is given twice", path, lineno, key);
            return -1;
        }
        seen[k] = 1;
        if (KEYS[k].str != (size_t)-1) {
            snprintf((char *)p + KEYS[k].str, NGENIC_STR, "%s", value);
            if (strlen(value) >= NGENIC_STR) {
                cli_errline("--ngenic %s:%zu: %s is longer than %d bytes", path, lineno, key,
                            NGENIC_STR - 1);
                return -1;
            }
            return 0;
        }
        char *end;
        errno = 0;
        double v = strtod(value, &end);
        if (end == value || *end || !isfinite(v) || errno == ERANGE) {
            cli_errline("--ngenic %s:%zu: %s: '%s' is not a number", path, lineno, key,
                        tbrf_io_escape(value, e1, sizeof e1));
            return -1;
        }
        *(double *)((char *)p + KEYS[k].num) = v;
        return 0;
    }
    cli_errline("--ngenic %s:%zu: unknown key '%s' (not one of N-GenIC's: tbrf refuses what it "
                "cannot honour; doc/arepo.md, \"--ngenic\")", path, lineno,
                tbrf_io_escape(key, e2, sizeof e2));
    return -1;
}

/* Splits a line into key and value ('%' comments and blanks dropped):
 * 1 for a pair, 0 for nothing, -1 after the message. */
static int split_line(char *line, const char *path, size_t lineno, char **key, char **value)
{
    char *c = strchr(line, '%');
    if (c)
        *c = '\0';
    *key = strtok(line, " \t\r\n");
    if (!*key)
        return 0;
    *value = strtok(NULL, " \t\r\n");
    char *extra = *value ? strtok(NULL, " \t\r\n") : NULL;
    if (!*value || extra) {
        cli_errline("--ngenic %s:%zu: %s needs one value", path, lineno, *key);
        return -1;
    }
    return 1;
}

/* Both files' bounds, checked as they are read, before anything is
 * parsed: a parameter file is a few KiB, a spectrum table a few hundred
 * rows. */
#define NG_PARAM_BYTES ((long)1 << 20)
#define NG_TABLE_BYTES ((long)1 << 26)

/* A text file being read line by line, bounded (ng_open, ng_line). */
typedef struct ng_text {
    FILE *f;
    const char *label; /* "--ngenic P" or "--ngenic P: FileWithInputSpectrum S" */
    const char *name;
    long bytes, max;
    size_t lineno;
} ng_text;

/* Opens name for ng_line: 0, or EXIT_USAGE after the message (unreadable,
 * a folder). */
static int ng_open(ng_text *t, const char *label, const char *name, long max)
{
    memset(t, 0, sizeof *t);
    t->label = label;
    t->name = name;
    t->max = max;
    t->f = fopen(name, "rb");
    struct stat st;
    const int dir = t->f && fstat(fileno(t->f), &st) == 0 && S_ISDIR(st.st_mode);
    if (!t->f || dir) {
        cli_errline("%s: cannot be read: %s", label, dir ? "it is a folder, not a file"
                                                           : strerror(errno));
        if (t->f)
            fclose(t->f);
        t->f = NULL;
        return EXIT_USAGE;
    }
    return 0;
}

/* The next line (its '\n' dropped) into line[cap]: 1, 0 at the end, or
 * -1 after the message naming the line and byte: a byte that is no text
 * (NUL, a control byte other than a blank, DEL), a line longer than
 * cap - 1 bytes, a file beyond its bound, a read error. */
static int ng_line(ng_text *t, char *line, size_t cap)
{
    size_t len = 0;
    int c;
    t->lineno++;
    while ((c = fgetc(t->f)) != EOF && c != '\n') {
        if ((c < 0x20 && c != '\t' && c != '\r' && c != '\v' && c != '\f') || c == 0x7f) {
            cli_errline("%s:%zu: byte %zu is 0x%02x, no text (binary data, not a text file)",
                        t->label, t->lineno, len + 1, (unsigned)c);
            return -1;
        }
        if (len + 1 >= cap || ++t->bytes > t->max) {
            if (len + 1 >= cap)
                cli_errline("%s:%zu: line longer than %zu bytes", t->label, t->lineno, cap - 1);
            else
                cli_errline("%s:%zu: the file is longer than %ld bytes, more than such a file "
                            "holds", t->label, t->lineno, t->max);
            return -1;
        }
        line[len++] = (char)c;
    }
    line[len] = '\0';
    if (c == EOF && ferror(t->f)) {
        cli_errline("%s: cannot be read: %s", t->label, strerror(errno));
        return -1;
    }
    t->bytes++;
    return c == EOF && len == 0 ? 0 : 1;
}

int ngenic_read(const char *path, ngenic_params *p)
{
    memset(p, 0, sizeof *p);
    p->NumFiles = 1;
    char label[1100], e1[1024];
    snprintf(label, sizeof label, "--ngenic %s", tbrf_io_escape(path, e1, sizeof e1));
    ng_text t;
    if (ng_open(&t, label, path, NG_PARAM_BYTES))
        return EXIT_USAGE;
    int seen[NKEYS] = {0}, rc = 0, got;
    char line[4096];
    while (rc == 0 && (got = ng_line(&t, line, sizeof line)) != 0) {
        char *key, *value;
        int s = got < 0 ? -1 : split_line(line, path, t.lineno, &key, &value);
        if (s < 0 || (s > 0 && set_key(path, t.lineno, key, value, p, seen)))
            rc = EXIT_USAGE;
    }
    fclose(t.f);
    for (int k = 0; rc == 0 && k < NKEYS; k++)
        if (KEYS[k].required && !seen[k]) {
            cli_errline("--ngenic %s: %s is missing (N-GenIC requires it)", path, KEYS[k].name);
            rc = EXIT_USAGE;
        }
    return rc;
}

/* A value that tbrf cannot honour: the key, why, what to do. */
static int refuse(const char *path, const char *key, double v, const char *why)
{
    cli_errline("--ngenic %s: %s %g: %s", path, key, v, why);
    return EXIT_USAGE;
}

static int is_int(double v, double lo, double hi)
{
    return v == floor(v) && v >= lo && v <= hi;
}

int ngenic_check(const char *path, const ngenic_params *p)
{
    if (p->WDM_On != 0)
        return refuse(path, "WDM_On", p->WDM_On, "tbrf has no warm-dark-matter cut-off");
    if (p->WDM_Vtherm_On != 0)
        return refuse(path, "WDM_Vtherm_On", p->WDM_Vtherm_On,
                      "tbrf adds no thermal velocities");
    if (p->OmegaDM_2ndSpecies != 0)
        return refuse(path, "OmegaDM_2ndSpecies", p->OmegaDM_2ndSpecies,
                      "tbrf has no second dark-matter species");
    if (!(p->OmegaBaryon >= 0) || !(p->OmegaBaryon < p->Omega))
        return refuse(path, "OmegaBaryon", p->OmegaBaryon, "tbrf needs 0 <= OmegaBaryon < Omega "
                      "(0: dark matter only, Eisenstein & Hu's zero-baryon form)");
    if (p->SphereMode != 1)
        return refuse(path, "SphereMode", p->SphereMode, "tbrf cuts the modes at the sphere "
                      "|k| < k_Nyquist (SphereMode 1), not N-GenIC's cube");
    if (p->WhichSpectrum != 1 && p->WhichSpectrum != 2)
        return refuse(path, "WhichSpectrum", p->WhichSpectrum, "tbrf has Eisenstein & Hu (1) "
                      "and tabulated spectra (2), not the Efstathiou/Bond fit with ShapeGamma");
    if (p->ReNormalizeInputSpectrum != 0 && p->ReNormalizeInputSpectrum != 1)
        return refuse(path, "ReNormalizeInputSpectrum", p->ReNormalizeInputSpectrum,
                      "N-GenIC takes 1 (normalise to Sigma8) or 0 (keep the table's amplitude)");
    if (!is_int(p->Nsample, 2, 2048))
        return refuse(path, "Nsample", p->Nsample, "need an integer 2 <= Nsample <= 2048");
    if (!is_int(p->Nmesh, p->Nsample, 1e6))
        return refuse(path, "Nmesh", p->Nmesh, "need an integer Nmesh >= Nsample (tbrf "
                      "evaluates the displacement exactly at the particles: an Nmesh below "
                      "Nsample would cut modes that N-GenIC keeps)");
    if (!is_int(p->GlassTileFac, 1, 2048))
        return refuse(path, "GlassTileFac", p->GlassTileFac, "need an integer 1 .. 2048");
    if (!is_int(p->Seed, 0, 4294967295.0))
        return refuse(path, "Seed", p->Seed, "need an integer 0 .. 4294967295");
    if (!is_int(p->NumFiles, 1, 65536))
        return refuse(path, "NumFiles", p->NumFiles, "need an integer 1 .. 65536");
    static const char *const POSITIVE[] = {"Box", "UnitLength_in_cm", "UnitMass_in_g",
                                           "UnitVelocity_in_cm_per_s",
                                           "InputSpectrum_UnitLength_in_cm"};
    const double pos[] = {p->Box, p->UnitLength_in_cm, p->UnitMass_in_g,
                          p->UnitVelocity_in_cm_per_s, p->InputSpectrum_UnitLength_in_cm};
    for (int i = 0; i < 5; i++)
        if (!(pos[i] > 0))
            return refuse(path, POSITIVE[i], pos[i], "must be > 0");
    return 0;
}

/* 1 Mpc/h in cm, N-GenIC's constant (its 8 Mpc/h and unit conversions). */
#define NGENIC_MPC_CM 3.085678e24
#define PI_NG 3.14159265358979323846

int ngenic_power(const char *path, const ngenic_params *p, tbrf_model **power)
{
    *power = NULL;
    if (p->WhichSpectrum != 2)
        return 0;
    const char *file = p->FileWithInputSpectrum;
    char label[2200], e1[1024], e2[1024];
    snprintf(label, sizeof label, "--ngenic %s: FileWithInputSpectrum %s",
             tbrf_io_escape(path, e1, sizeof e1), tbrf_io_escape(file, e2, sizeof e2));
    ng_text t;
    if (ng_open(&t, label, file, NG_TABLE_BYTES))
        return EXIT_USAGE;
    size_t n = 0, cap = 0;
    double *k = NULL, *pk = NULL;
    int rc = 0;
    char line[1024];
    /* N-GenIC's rows: log10 k (h per InputSpectrum_UnitLength), log10
     * Delta^2 = log10(4 pi k^3 P_N) = log10(k^3 P / (2 pi^2)) */
    const double kfac = NGENIC_MPC_CM / p->InputSpectrum_UnitLength_in_cm; /* to h/Mpc */
    const double tilt_unit = p->UnitLength_in_cm / NGENIC_MPC_CM; /* h/Mpc to internal */
    int got;
    while (rc == 0 && (got = ng_line(&t, line, sizeof line)) != 0) {
        double lk, ld;
        char extra;
        if (got < 0) {
            rc = EXIT_USAGE;
            break;
        }
        if (sscanf(line, " %lf %lf %c", &lk, &ld, &extra) != 2) {
            if (strspn(line, " \t\r\n") == strlen(line))
                continue;
            cli_errline("--ngenic %s: %s row %zu is not two numbers (log10 k, log10 Delta^2)",
                        path, file, n + 1);
            rc = EXIT_USAGE;
            break;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 256;
            double *a = cap < 100000000 ? realloc(k, cap * sizeof *k) : NULL;
            double *b = a ? realloc(pk, cap * sizeof *pk) : NULL;
            if (a)
                k = a;
            if (b)
                pk = b;
            if (!a || !b) {
                cli_errline("--ngenic %s: %s: too many rows", path, file);
                rc = EXIT_FAIL;
                break;
            }
        }
        double kk = pow(10.0, lk) * kfac;
        /* N-GenIC tilts every spectrum by k^(PrimordialIndex - 1), k in
         * its internal length unit; the Sigma8 normalisation after it
         * makes the unit immaterial to the shape */
        k[n] = kk;
        pk[n] = 2.0 * PI_NG * PI_NG * pow(10.0, ld) / (kk * kk * kk) *
                pow(kk * tilt_unit, p->PrimordialIndex - 1.0);
        n++;
    }
    fclose(t.f);
    if (rc == 0) {
        int st = tbrf_model_table(n, k, pk, power);
        if (st != TBRF_OK) {
            cli_errline("--ngenic %s: %s: %s", path, file,
                        *power ? tbrf_model_message(*power) : tbrf_strerror(st));
            tbrf_model_destroy(*power);
            *power = NULL;
            rc = EXIT_USAGE;
        }
    }
    free(k);
    free(pk);
    return rc;
}
